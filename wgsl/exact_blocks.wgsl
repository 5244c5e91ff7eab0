// The exact products of R rows of one token by a workgroup of 128 threads
// (matmul_exact_blocks, matmul_id_exact_blocks): all threads find the
// blocks' integer sums and scales (exact_block), CB blocks of each row at
// a time, which depends on no order; then one thread a row folds them
// into the row's sums in the CPU's order (exact_fold).
const R = 4u;
const CB = 32u;

var<workgroup> recs: array<Rec, 128>;

// rows_dot returns, to thread li < R, the product of row n0 + li (rows of
// rb bytes from byte base) with the activation row at xo, scales at so.
// Rows from N on, and every row where live is false, are skipped. Call
// from uniform control flow.
fn rows_dot(li: u32, live: bool, n0: u32, N: u32, base: u32, rb: u32, xo: u32, so: u32, order: u32) -> f32 {
    let nb = pu(0u) / EXACT_BLOCK;
    let pn = n0 + li / CB;
    var st = exact_state(nb);
    for (var c0 = 0u; c0 < nb; c0 += CB) {
        let blk = c0 + li % CB;
        if (live && pn < N && blk < nb) { recs[li] = exact_block(base + pn * rb, xo, so, blk); }
        workgroupBarrier();
        if (live && li < R && n0 + li < N) {
            for (var j = 0u; j < CB && c0 + j < nb; j++) { exact_fold(&st, recs[li * CB + j], c0 + j, order); }
        }
        workgroupBarrier();
    }
    return exact_result(st, nb, order);
}
