// matmul_id_gate_up.wgsl for a decode batch, grouped by expert as
// matmul_id_tokens is: a workgroup computes WROWS rows of one expert's
// gates G = W[e] · In and ups U = V[e] · In for a run of up to TOKENS of
// its pairs, and writes them and silu(G)·U. Each pair's sums are
// matmul_id_gate_up's, bit for bit. W and V may be one merged stack (an
// expert's gate rows, then its up rows: ExpertRows apart, the up rows from
// UpRow). Words: expertGateUpParams (Out is G); both weights are bound
// whole.
//!use common
//!dot
//!use matvec_tokens
//!use expert_runs
//!reduce
//!use silu
//!twin W V
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> G: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;
@group(0) @binding(6) var<storage, read_write> U: array<f32>;
@group(0) @binding(7) var<storage, read_write> F: array<f32>;
@group(0) @binding(8) var<storage, read> V: array<u32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let w = run_rows(group_index(wid, nwg));
    let r = w.r;
    if (!r.starts) { return; }
    let N = pu(P_N);
    let n0 = w.n0;
    let known = r.e < pu(P_EXPERTS);
    let row = r.e * pu(P_EXPERT_ROWS) + n0;
    if (known) { accumulate_rows(r.x, r.live, row, N - n0, l.li, 0u); }
    let gs = reduce_rows(l);
    // The second reduction reuses the workgroup memory the first one's
    // totals are still being read from.
    workgroupBarrier();
    if (known) { accumulate_rows_V(r.x, r.live, row + pu(P_UP_ROW), N - n0, l.li, 0u); }
    let us = reduce_rows(l);
    let o = run_output(l.li, n0, r);
    if (!o.ok) { return; }
    O[at(P_OUT, o.n, o.s, o.t, 0u)] = gs;
    U[at(P_U, o.n, o.s, o.t, 0u)] = us;
    F[at(P_F, o.n, o.s, o.t, 0u)] = swiglu(gs, us);
}
