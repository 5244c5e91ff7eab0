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
//!reduce
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let N = pu(1u);
    let S = pu(2u);
    let groups = (N + ROWS - 1u) / ROWS;
    let n0 = (g % groups) * ROWS;
    let s = (g / groups) % S;
    let t = g / (groups * S);
    let live = t < pu(3u);
    var e = pu(5u);
    if (live) { e = IDs[at(12u, s, t, 0u, 0u)]; }
    let mine = e >= pu(22u) && e < pu(23u);
    if (mine) {
        var si = s;
        if (pu(6u) == 1u) { si = 0u; }
        accumulate(at(7u, 0u, si, t, 0u), (e - pu(22u)) * N + n0, N - n0, l.li, pu(24u));
    }
    let sum = reduce_rows(l);
    let writes = mine || (e >= pu(5u) && pu(25u) != 0u);
    if (live && writes && l.li < ROWS && n0 + l.li < N) { O[at(17u, n0 + l.li, s, t, 0u)] = sum; }
}
