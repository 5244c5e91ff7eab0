// Out[n, b, t] = Σ_k W[k, n, b] · In[k, b, t] for the sequences of a
// decode batch: a workgroup computes WROWS consecutive rows for TOKENS
// tokens (matvec_tokens.wgsl, tokens_shape.wgsl), each token's sums those
// matmul.wgsl gives it alone, bit for bit, while the weights are read from memory once for
// all of them and each weight part decoded once for all of them (the
// weight types whose dot_TYPE has wload and wdot: Q4_0, Q8_0, Q4_K,
// Q6_K). Epilogues 0 to 3 as in matmul.wgsl. Words: matmulParams.
//!use common
//!dot
//!use matvec_tokens
//!reduce
//!use epilogue
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let N = pu(P_N);
    let B = pu(P_B);
    let T = pu(P_T);
    let groups = (N + WROWS - 1u) / WROWS;
    // A row group's token groups are neighbouring workgroups: they run
    // together and read the group's weights from memory once, the later
    // groups from the cache.
    let tgroups = (T + TOKENS - 1u) / TOKENS;
    let rg = g / tgroups;
    let n0 = (rg % groups) * WROWS;
    let b = rg / groups;
    let t0 = (g % tgroups) * TOKENS;
    // Past the last batch: a grid's surplus, where a large grid spills
    // into y.
    let live = b < B;
    if (live) { accumulate_tokens(b, t0, T, b * N + n0, N - n0, l.li, pu(P_BASE)); }
    let s = reduce_rows(l);
    if (!live || l.li >= ROWS) { return; }
    let n = n0 + l.li % WROWS;
    let t = t0 + l.li / WROWS;
    if (n >= N || t >= T) { return; }
    O[at(P_OUT, n, b, t, 0u)] = s;
    let kind = pu(P_EPILOGUE);
    if (kind == 0u) { return; }
    F[at(P_F, n, b, t, 0u)] = epilogue_value(kind, s, E[at(P_E, n, b, t, 0u)]);
}
