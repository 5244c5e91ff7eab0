// A decode step's mixture of experts finished in one dispatch, for inputs
// rounded already (by moe_gate_up_round, or a quantize_act of both): the chosen experts' down products and their weighted sum
// (weighted_slots, as matmul_id_weighted.wgsl sums them), the shared
// experts' down product of the same rows (matmul.wgsl's sum), the two
// added, and the residual added to that, F = E + (shared + Σ_s
// Weights[s]·D_s), the order of the dispatches it stands in for, so the
// results are theirs bit for bit. Both weights are of one type and row
// length and bound whole; the products and partial sums are read by
// nothing else and are not written. Words: moeDownParams (In the chosen
// experts' rounded input, Res the residual E, Out the result F, Shared
// the shared experts' rounded input). W and X are the chosen experts'
// weights and input, WS and XS the shared ones'.
//!use common
//!dot
//!use matvec
//!use expert_rows
//!reduce
//!use weighted_slots
//!twin W WS
//!twin X XS
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> IDs: array<u32>;
@group(0) @binding(5) var<storage, read> Wt: array<f32>;
@group(0) @binding(6) var<storage, read> E: array<f32>;
@group(0) @binding(7) var<storage, read_write> F: array<f32>;
@group(0) @binding(8) var<storage, read> WS: array<u32>;
@group(0) @binding(9) var<storage, read> XS: array<vec4<u32>>;

fn slot_input(x: ExpertRows, li: u32) -> u32 { return x.xo; }

fn slot_product(x: ExpertRows, s: u32, n: u32, sum: f32) {}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let N = pu(P_N);
    let r = weighted_slots(group_index(wid, nwg), l);
    let x = r.x;
    // the last reduction's totals are still being read
    workgroupBarrier();
    for (var i = 0u; i < ROWS; i++) { acc[i] = 0.0; }
    let li = group_lane(l.li);
    if (x.live && x.n0 < N) { accumulate_WS_XS(at(P_SHARED, 0u, 0u, x.t, 0u), x.n0, N - x.n0, li, 0u); }
    let sh = reduce_rows(l);
    if (!x.live || li >= ROWS || x.n0 + li >= N) { return; }
    let n = x.n0 + li;
    F[at(P_OUT, n, x.t, 0u, 0u)] = E[at(P_RES, n, x.t, 0u, 0u)] + (sh + r.y);
}
