// Out[n, s, t] = Σ_k W[k, n, IDs[s, t]] · In[k, s', t] (s' = s, or 0 when
// In has one row per token) for the (slot, token) pairs of a decode batch,
// grouped by expert (expert_groups): a workgroup computes WROWS rows of
// one expert for a run of up to TOKENS of its pairs (expert_runs,
// matvec_tokens), so the expert's rows are read once a run where
// matmul_id reads them once a pair, and each pair's sums are matmul_id's
// (the same lane partials, the same reduction) bit for bit. Ids out of
// range (group E) give zeros. Words: expertTokensParams; W is bound whole.
//!use common
//!dot
//!use matvec_tokens
//!use expert_runs
//!reduce
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> G: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let w = run_rows(group_index(wid, nwg));
    let r = w.r;
    if (!r.starts) { return; }
    let N = pu(P_N);
    let n0 = w.n0;
    let known = r.e < pu(P_EXPERTS);
    if (known) { accumulate_rows(r.x, r.live, r.e * N + n0, N - n0, l.li, 0u); }
    let sum = reduce_rows(l);
    let o = run_output(l.li, n0, r);
    if (o.ok) { O[at(P_OUT, o.n, o.s, o.t, 0u)] = select(0.0, sum, known); }
}
