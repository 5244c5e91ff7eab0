// The exact products (matmul_exact_blocks) of an attention block's query,
// key and value projections in one dispatch: two or three weights of one
// type and row length read by one rounded input, W the queries (NQ rows),
// V the keys and U the values (NK rows each). A workgroup takes R rows of
// one of them, summed as matmul_exact_blocks sums them, in the order the
// CPU takes for that weight, so the results are a dispatch each's bit for
// bit: two dispatches fewer a layer. One token. Words: 0 K, 1 NQ, 2 NK, 3
// how many weights (2: no values, U unread), 4 row bytes, In at 5, Q at
// 10, K at 15, V at 20, 25 26 27 the orders of W, V, U, 28 29 30 the bytes
// where their row 0 starts, 31 and 32 In's scales, 33 zero (nofuse).
//!swap exact_aq exact_aq_shared
//!use common
//!exact
//!use exact_blocks
//!twin W V
//!twin W U
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> OQ: array<f32>;
@group(0) @binding(5) var<storage, read_write> OK: array<f32>;
@group(0) @binding(6) var<storage, read_write> OV: array<f32>;
@group(0) @binding(7) var<storage, read> V: array<u32>;
@group(0) @binding(8) var<storage, read> U: array<u32>;

const ZERO_WORD = 33u;

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let NQ = pu(1u);
    let NK = pu(2u);
    let gq = (NQ + R - 1u) / R;
    let gk = (NK + R - 1u) / R;
    let xo = at(5u, 0u, 0u, 0u, 0u);
    let so = pu(31u) + 2u * (xo / pu(32u));
    let rb = pu(4u);
    if (g < gq) {
        let y = rows_dot(li, true, g * R, NQ, pu(28u), rb, xo, so, pu(25u));
        if (li < R && g * R + li < NQ) { OQ[at(10u, g * R + li, 0u, 0u, 0u)] = y; }
    } else if (g < gq + gk) {
        let n0 = (g - gq) * R;
        let y = rows_dot_V(li, true, n0, NK, pu(29u), rb, xo, so, pu(26u));
        if (li < R && n0 + li < NK) { OK[at(15u, n0 + li, 0u, 0u, 0u)] = y; }
    } else if (pu(3u) == 3u && g < gq + 2u * gk) {
        let n0 = (g - gq - gk) * R;
        let y = rows_dot_U(li, true, n0, NK, pu(30u), rb, xo, so, pu(27u));
        if (li < R && n0 + li < NK) { OV[at(20u, n0 + li, 0u, 0u, 0u)] = y; }
    }
}
