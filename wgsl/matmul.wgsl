// Out[n, b, t] = Σ_k W[k, n, b] · In[k, b, t] for weights in their file
// layout: a workgroup computes ROWS consecutive rows of one (b, t)
// (matvec.wgsl). An epilogue may also write F = P + E (1), silu(E)·P (2),
// silu(P)·E (3) or G + (P + E) (4) from the product P and tensors E and G
// of Out's shape: the residual add, the gated unit, or a shared expert's
// two adds (the chosen experts' sum, then the residual) that would
// otherwise be dispatches of their own. Words: matmulParams.
//!use common
//!dot
//!use matvec
//!reduce
//!use epilogue
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;
@group(0) @binding(7) var<storage, read> G: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let N = pu(P_N);
    let B = pu(P_B);
    let groups = (N + ROWS - 1u) / ROWS;
    let n0 = (g % groups) * ROWS;
    let b = (g / groups) % B;
    let t = g / (groups * B);
    let live = t < pu(P_T);
    if (live) { accumulate(at(P_IN, 0u, b, t, 0u), b * N + n0, N - n0, l.li, pu(P_BASE)); }
    let s = reduce_rows(l);
    if (!live || l.li >= ROWS || n0 + l.li >= N) { return; }
    let n = n0 + l.li;
    O[at(P_OUT, n, b, t, 0u)] = s;
    let kind = pu(P_EPILOGUE);
    if (kind == 0u) { return; }
    var f = epilogue_value(kind, s, E[at(P_E, n, b, t, 0u)]);
    if (kind == 4u) { f = G[at(P_G, n, b, t, 0u)] + f; }
    F[at(P_F, n, b, t, 0u)] = f;
}
