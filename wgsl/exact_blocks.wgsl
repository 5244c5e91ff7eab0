// The exact products of R rows of one token by a workgroup of THREADS
// threads (matmul_exact_blocks, matmul_id_exact_blocks), CB blocks of
// each row at a time:
//   - the activation's values for the chunk's blocks are unpacked once
//     for all R rows (fill_aq in exact_aq_shared, which the kernels swap
//     in for exact_aq), the next chunk's while the last one is folded;
//   - every thread finds one (row, block)'s integer sums and scales
//     (exact_block), which depends on no order;
//   - the records fold into their rows' sums in the CPU's order: where
//     the order is eight lanes or fewer (exact_lanes), all THREADS
//     threads, CB = 8 a row, one lane each (exact_fold_lane); else R
//     threads, one a row (exact_fold). One thread a row folding eight
//     lanes was most of a Q8_0 product's time on the H100 (a 2048 x
//     128256 product 1231 us, 600 with the lanes apart).
// Workgroup memory: 128 records of 80 bytes, two chunks' values (at most
// 4 KiB, blocks of 256) and the lanes' ends (1.5 KiB): within WebGPU's
// default 16 KiB.
const THREADS = 128u;
// Eight: the lanes of the lane fold, one a thread of a row.
const CB = 8u;
const R = THREADS / CB;

// Records lie block by block, the R rows of a block side by side: the
// folding threads read one block's records of their R rows at a time.
var<workgroup> recs: array<Rec, THREADS>;
// Each lane's chains at the end, for the row's thread to gather.
var<workgroup> lane_a: array<f32, THREADS>;
var<workgroup> lane_m: array<f32, THREADS>;
var<workgroup> lane_c: array<f32, THREADS>;

// lane_in is what lane j folds of record ri.
fn lane_in(ri: u32, j: u32) -> LaneIn {
    let o = 8u + 4u * (j & 1u);
    let s = &recs[ri].s;
    return LaneIn(recs[ri].f, (*s)[j], vec4<i32>((*s)[o], (*s)[o + 1u], (*s)[o + 2u], (*s)[o + 3u]), (*s)[12u + (j & 3u)]);
}

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
    let lanes = exact_lanes(order);
    var ln = Lane(0.0, 0.0, 0.0);
    fill_aq(li, live, xo, so, 0u, nb, 0u);
    workgroupBarrier();
    for (var c0 = 0u; c0 < nb; c0 += CB) {
        if (live && n0 + r < N && c0 + j < nb) { recs[j * R + r] = exact_block(base + (n0 + r) * rb, xo, so, c0 + j); }
        workgroupBarrier();
        if (lanes) {
            if (live && n0 + r < N) {
                for (var k = 0u; k < CB && c0 + k < nb; k++) { exact_fold_lane(&ln, lane_in(k * R + r, j), c0 + k, order, j); }
            }
        } else if (folds) {
            for (var k = 0u; k < CB && c0 + k < nb; k++) { exact_fold(&st, recs[k * R + li], c0 + k, order); }
        }
        fill_aq(li, live, xo, so, c0 + CB, nb, (c0 / CB + 1u) & 1u);
        workgroupBarrier();
    }
    if (lanes) {
        lane_a[li] = ln.a;
        lane_m[li] = ln.m;
        lane_c[li] = ln.c;
        workgroupBarrier();
        if (folds) {
            let l0 = li * CB;
            st.acc = array<f32, 8>(lane_a[l0], lane_a[l0 + 1u], lane_a[l0 + 2u], lane_a[l0 + 3u], lane_a[l0 + 4u], lane_a[l0 + 5u],
                lane_a[l0 + 6u], lane_a[l0 + 7u]);
            st.aux = array<f32, 4>(lane_m[l0], lane_m[l0 + 1u], lane_m[l0 + 2u], lane_m[l0 + 3u]);
            st.x = lane_c[l0];
            st.y = lane_c[l0 + 1u];
        }
    }
    return exact_result(st, nb, order);
}
