// The exact products of R rows of one token by a workgroup of THREADS
// threads (matmul_exact_blocks, matmul_id_exact_blocks), CB blocks of
// each row at a time:
//   - the activation's values for the chunk's blocks are unpacked once
//     for all R rows (fill_aq in exact_aq_shared, which the kernels swap
//     in for exact_aq), the next chunk's while the last one is folded;
//   - every thread finds one (row, block)'s integer sums and scales
//     (exact_block), which depends on no order;
//   - R threads, one a row, fold them into their rows' sums in the CPU's
//     order (exact_fold).
// Workgroup memory: 128 records of 80 bytes, and two chunks' values, at
// most 4 KiB (blocks of 256): within WebGPU's default 16 KiB.
const THREADS = 128u;
const CB = 8u;
const R = THREADS / CB;

// Records lie block by block, the R rows of a block side by side: the
// folding threads read one block's records of their R rows at a time.
var<workgroup> recs: array<Rec, THREADS>;

// rows_dot returns, to thread li < R, the product of row n0 + li (rows of
// rb bytes from byte base) with the activation row at xo, scales at so.
// Rows from N on, and every row where live is false, are skipped. Call
// from uniform control flow.
fn rows_dot(li: u32, live: bool, n0: u32, N: u32, base: u32, rb: u32, xo: u32, so: u32, order: u32) -> f32 {
    let nb = pu(0u) / EXACT_BLOCK;
    let r = li / CB;
    let j = li % CB;
    let folds = live && li < R && n0 + li < N;
    var st = exact_state(nb);
    fill_aq(li, live, xo, so, 0u, nb, 0u);
    workgroupBarrier();
    for (var c0 = 0u; c0 < nb; c0 += CB) {
        if (live && n0 + r < N && c0 + j < nb) { recs[j * R + r] = exact_block(base + (n0 + r) * rb, xo, so, c0 + j); }
        workgroupBarrier();
        if (folds) {
            for (var k = 0u; k < CB && c0 + k < nb; k++) { exact_fold(&st, recs[k * R + li], c0 + k, order); }
        }
        fill_aq(li, live, xo, so, c0 + CB, nb, (c0 / CB + 1u) & 1u);
        workgroupBarrier();
    }
    return exact_result(st, nb, order);
}
