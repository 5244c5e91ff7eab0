// Out[n, s, t] = Σ_k W[k, n, IDs[s, t]] · In[k, s', t], s' = s or 0 when In
// has one row per token: only the chosen experts' rows are read. A
// workgroup computes ROWS consecutive rows of one (s, t) (matvec.wgsl).
// Words: matmulIDParams. Experts too many for one binding are split over
// dispatches: this one has experts R0 .. R1 (exclusive), from byte Base
// of W, and writes only their rows; an expert id out of range gives
// zeros, written by the Last dispatch.
//!use common
//!dot
//!use matvec
//!use expert_rows
//!reduce
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let N = pu(P_N);
    let x = expert_rows(group_index(wid, nwg));
    let mine = x.e >= pu(P_R0) && x.e < pu(P_R1);
    if (mine) { accumulate(x.xo, (x.e - pu(P_R0)) * N + x.n0, N - x.n0, l.li, pu(P_BASE)); }
    let sum = reduce_rows(l);
    let writes = mine || (x.e >= pu(P_EXPERTS) && pu(P_LAST) != 0u);
    if (x.live && writes && l.li < ROWS && x.n0 + l.li < N) { O[at(P_OUT, x.n0 + l.li, x.s, x.t, 0u)] = sum; }
}
