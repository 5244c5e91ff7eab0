// The exact products of quantized weights (matmul_exact's words and
// results) with the work split as the CPU's order allows (exact_blocks):
// R rows of one token a workgroup. One thread an output (matmul_exact)
// leaves a decode product a few thousand threads, each walking its row
// alone: on the H100 that was 44 of exact mode's 55 ms a token.
//!swap exact_aq exact_aq_shared
//!use common
//!exact
//!use exact_blocks
//!use exact_epilogue
//!use matmul_exact_io

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let N = pu(1u);
    let B = pu(2u);
    let groups = (N + R - 1u) / R;
    let n0 = (g % groups) * R;
    let b = (g / groups) % B;
    let t = g / (groups * B);
    let live = t < pu(3u);
    let xo = at(5u, 0u, b, t, 0u);
    var order = pu(17u);
    if (t < pu(16u)) { order = pu(15u); }
    let so = pu(19u) + 2u * (xo / pu(20u));
    let y = rows_dot(li, live, n0, N, pu(18u) + b * N * pu(4u), pu(4u), xo, so, order);
    if (live && li < R && n0 + li < N) {
        O[at(10u, n0 + li, b, t, 0u)] = y;
        exact_epilogue(y, n0 + li, b, t);
    }
}
