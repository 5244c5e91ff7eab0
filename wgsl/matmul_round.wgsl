// A decode step's product Out[n, b] = Σ_k W[k, n, b] · In[k, b] that also
// writes its output rounded for the product reading it next (round_rows):
// MLA's v_b before the attention output and q_b before k_b, each a
// quantize_act dispatch fewer. The sums are matmul.wgsl's (its groups of
// ROWS rows by WG threads, 16 of them a workgroup: matvec_shape_round)
// and the rounding is quantize_act's, so both outputs are what those two
// dispatches write, bit for bit. Words: matmulRoundParams.
//!swap matvec_shape matvec_shape_round
//!use common
//!dot
//!use matvec
//!reduce
//!use round_rows
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> Y: array<u32>;

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let N = pu(P_N);
    let B = pu(P_B);
    let groups = wg_count(N);
    // this thread's matvec group's rows, and its place in the group
    let n0 = (g % groups) * WG_ROWS + group_row(l.li);
    let li = group_lane(l.li);
    let b = (g / groups) % B;
    let t = g / (groups * B);
    let live = t < pu(P_T);
    if (live && n0 < N) { accumulate(at(P_IN, 0u, b, t, 0u), b * N + n0, N - n0, li, pu(P_BASE)); }
    let s = reduce_rows(l);
    let own = live && li < ROWS && n0 + li < N;
    let r = at(P_OUT, n0 + li, b, t, 0u);
    if (own) { O[r] = s; }
    round_rows(l.li, own, s, r, RoundRows(pu(P_ROUND_MODE), pu(P_ROUND_OFF), pu(P_ROUND_STRIDE), pu(P_ROUND_K), pu(P_ROUND_ROWS)));
}
