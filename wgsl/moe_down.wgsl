// A decode step's mixture of experts finished in one dispatch: the chosen
// experts' down products and their weighted sum (weighted_slots, as
// matmul_id_weighted.wgsl sums them), the shared experts' down product of
// the same rows (matmul.wgsl's sum), the two added, and the residual added
// to that, F = E + (shared + Σ_s Weights[s]·D_s), the order of the
// dispatches it stands in for. Each input row (a chosen expert's, then the
// shared one's) is rounded in workgroup memory (xr_round) as quantize_act
// would round it before those dispatches, so the results are theirs bit
// for bit. Both weights are of one type and row length and bound whole;
// the products and partial sums are read by nothing else and are not
// written. Words as matmul_id_weighted's (In at 7 the chosen experts'
// unrounded input, Weights at 26, E at 37, F at 42; its D, Out and add
// words unused), the shared experts' input at 47, 52 block size, 53
// quantize_act's mode. W and IN are the chosen experts' weights and
// input, WS and INS the shared ones'.
//!swap matvec_shape matvec_shape_wide
//!use common
//!dot
//!use matvec
//!use expert_rows
//!reduce
//!use xr_round
//!use weighted_slots
//!twin W WS
//!twin X XR
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read_write> IN: array<f32>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> Wt: array<f32>;
@group(0) @binding(6) var<storage, read_write> E: array<f32>;
@group(0) @binding(7) var<storage, read_write> F: array<f32>;
@group(0) @binding(8) var<storage, read> WS: array<u32>;
@group(0) @binding(9) var<storage, read_write> INS: array<f32>;
// The matvec helpers' input, read here through their twins on XR; never
// bound.
@group(0) @binding(10) var<storage, read> X: array<vec4<f32>>;

// slot_input rounds slot x's input row into XR.
fn slot_input(x: ExpertRows, li: u32) -> u32 {
    let K = pu(0u);
    for (var i = li; i < K; i += THREADS) { XR[i >> 2u][i & 3u] = IN[x.xo + i]; }
    workgroupBarrier();
    round_xr(li, K, pu(52u), pu(53u));
    return 0u;
}

fn slot_product(x: ExpertRows, s: u32, n: u32, sum: f32) {}

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let N = pu(1u);
    let K = pu(0u);
    let r = weighted_slots_XR(group_index(wid, nwg), l);
    let x = r.x;
    // the last reduction's totals are still being read
    workgroupBarrier();
    for (var i = 0u; i < ROWS; i++) { acc[i] = 0.0; }
    for (var i = l.li; i < K; i += THREADS) { XR[i >> 2u][i & 3u] = INS[at(47u, i, 0u, x.t, 0u)]; }
    workgroupBarrier();
    round_xr(l.li, K, pu(52u), pu(53u));
    let li = group_lane(l.li);
    if (x.live && x.n0 < N) { accumulate_WS_XR(0u, x.n0, N - x.n0, li, 0u); }
    let sh = reduce_rows(l);
    if (!x.live || li >= ROWS || x.n0 + li >= N) { return; }
    let n = x.n0 + li;
    F[at(42u, n, x.t, 0u, 0u)] = E[at(37u, n, x.t, 0u, 0u)] + (sh + r.y);
}
