// Out[n, s, t] = Σ_k W[k, n, IDs[s, t]] · In[k, s', t], s' = s or 0 when In
// has one row per token: only the chosen experts' rows are read. A
// workgroup computes ROWS consecutive rows of one (s, t) (matvec.wgsl).
// Words: 0 K, 1 N, 2 S, 3 T, 4 row bytes, 5 experts, 6 In rows per token,
// In at 7, IDs at 12, Out at 17. Experts too many for one binding are
// split over dispatches: this one has experts 22 .. 23 (exclusive), from
// byte 24 of W, and writes only their rows; an expert id out of range
// gives zeros, written by the dispatch whose word 25 is set.
//!use common
//!dot
//!use matvec
//!use expert_rows
//!reduce
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let N = pu(1u);
    let x = expert_rows(group_index(wid, nwg));
    let mine = x.e >= pu(22u) && x.e < pu(23u);
    if (mine) { accumulate(x.xo, (x.e - pu(22u)) * N + x.n0, N - x.n0, l.li, pu(24u)); }
    let sum = reduce_rows(l);
    let writes = mine || (x.e >= pu(5u) && pu(25u) != 0u);
    if (x.live && writes && l.li < ROWS && x.n0 + l.li < N) { O[at(17u, x.n0 + l.li, x.s, x.t, 0u)] = sum; }
}
