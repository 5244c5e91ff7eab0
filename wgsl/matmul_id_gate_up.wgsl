// The chosen experts' gate and up products of a SwiGLU feed-forward in one
// dispatch (matmul_id.wgsl for two weights of one type and shape, W the
// gates and V the ups, read by one input): a workgroup computes ROWS rows
// of both for one (s, t), G = W[e] · In and U = V[e] · In, and writes them
// and silu(G)·U. The sums are matmul_id's, in the same order, so the
// results are those of two matmul_id dispatches and a swiglu bit for bit;
// two dispatches fewer a mixture-of-experts layer. W and V may be one
// merged stack (each expert's gate rows, then its up rows: ExpertRows
// apart, the up rows from UpRow). Words: expertGateUpParams (Out is G);
// both weights are bound whole.
//!use common
//!dot
//!use matvec
//!use expert_rows
//!reduce
//!use silu
//!twin W V
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;
@group(0) @binding(6) var<storage, read_write> U: array<f32>;
@group(0) @binding(7) var<storage, read_write> F: array<f32>;
@group(0) @binding(8) var<storage, read> V: array<u32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let N = pu(P_N);
    let x = expert_rows(group_index(wid, nwg));
    // An id out of range gives zeros, as in matmul_id.
    let known = x.e < pu(P_EXPERTS);
    if (known) { accumulate(x.xo, x.e * pu(P_EXPERT_ROWS) + x.n0, N - x.n0, l.li, 0u); }
    let gs = reduce_rows(l);
    // The second reduction reuses the workgroup memory the first one's
    // totals are still being read from.
    workgroupBarrier();
    for (var r = 0u; r < ROWS; r++) { acc[r] = 0.0; }
    if (known) { accumulate_V(x.xo, x.e * pu(P_EXPERT_ROWS) + pu(P_UP_ROW) + x.n0, N - x.n0, l.li, 0u); }
    let us = reduce_rows(l);
    if (!x.live || l.li >= ROWS || x.n0 + l.li >= N) { return; }
    let n = x.n0 + l.li;
    O[at(P_OUT, n, x.s, x.t, 0u)] = gs;
    U[at(P_U, n, x.s, x.t, 0u)] = us;
    F[at(P_F, n, x.s, x.t, 0u)] = swiglu(gs, us);
}
