// A decode step's gated units of a mixture of experts in one dispatch:
// the chosen experts' gate and up products with their SwiGLU
// (matmul_id_gate_up.wgsl's workgroups first) and the shared experts'
// (matmul_gate_up.wgsl's after them), all four weights of one type and
// row length, read by one input. Each workgroup sums as the kernel it
// stands in for, so the results are theirs bit for bit; the products
// themselves are read by nothing else and are not written. Words:
// moeGateUpParams (F the chosen experts' silu(G)·U, NS the shared
// experts' rows, FS their silu(G)·U; the chosen experts' rows as in
// matmul_id_gate_up). Every weight is bound whole: W and V the chosen
// experts' gates and ups (maybe one merged stack), SG and SU the shared
// ones'. moe_gate_up_round builds it again on 32-row workgroups
// that also round the units for the down products (round_rows, Round for
// the chosen experts' into Y, RoundShared for the shared ones' into YS).
//!use common
//!dot
//!use matvec
//!use expert_rows
//!reduce
//!use silu
//!use round_rows_none
//!twin W V
//!twin W SG
//!twin W SU
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> F: array<f32>;
@group(0) @binding(6) var<storage, read_write> FS: array<f32>;
@group(0) @binding(7) var<storage, read> V: array<u32>;
@group(0) @binding(8) var<storage, read> SG: array<u32>;
@group(0) @binding(9) var<storage, read> SU: array<u32>;

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let N = pu(P_N);
    let g = group_index(wid, nwg);
    let li = group_lane(l.li);
    let routed = wg_count(N) * pu(P_S) * pu(P_T);
    if (g < routed) {
        let x = expert_rows(g);
        let n0 = x.n0 + group_row(l.li);
        // An id out of range gives zeros, as in matmul_id.
        let known = x.e < pu(P_EXPERTS) && n0 < N;
        if (known) { accumulate(x.xo, x.e * pu(P_EXPERT_ROWS) + n0, N - n0, li, 0u); }
        let gs = reduce_rows(l);
        // The second reduction reuses the workgroup memory the first one's
        // totals are still being read from.
        workgroupBarrier();
        for (var r = 0u; r < ROWS; r++) { acc[r] = 0.0; }
        if (known) { accumulate_V(x.xo, x.e * pu(P_EXPERT_ROWS) + pu(P_UP_ROW) + n0, N - n0, li, 0u); }
        let us = reduce_rows(l);
        let own = x.live && li < ROWS && n0 + li < N;
        let f = swiglu(gs, us);
        let r = at(P_F, n0 + li, x.s, x.t, 0u);
        if (own) { F[r] = f; }
        round_rows(l.li, own, f, r, RoundRows(pu(P_ROUND_MODE), pu(P_ROUND_OFF), pu(P_ROUND_STRIDE), pu(P_ROUND_K), pu(P_ROUND_ROWS)));
        return;
    }
    let NS = pu(P_NS);
    let groups = wg_count(NS);
    let n0 = ((g - routed) % groups) * WG_ROWS + group_row(l.li);
    let t = (g - routed) / groups;
    let live = t < pu(P_T) && n0 < NS;
    let xo = at(P_IN, 0u, 0u, t, 0u);
    if (live) { accumulate_SG(xo, n0, NS - n0, li, 0u); }
    let gs = reduce_rows(l);
    workgroupBarrier();
    for (var r = 0u; r < ROWS; r++) { acc[r] = 0.0; }
    if (live) { accumulate_SU(xo, n0, NS - n0, li, 0u); }
    let us = reduce_rows(l);
    let own = live && li < ROWS && n0 + li < NS;
    let f = swiglu(gs, us);
    let r = at(P_FS, n0 + li, t, 0u, 0u);
    if (own) { FS[r] = f; }
    round_rows_YS(l.li, own, f, r, RoundRows(pu(P_ROUND_SHARED_MODE), pu(P_ROUND_SHARED_OFF), pu(P_ROUND_SHARED_STRIDE), pu(P_ROUND_SHARED_K), pu(P_ROUND_SHARED_ROWS)));
}
