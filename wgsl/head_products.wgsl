// A decode step's batched products of short rows (MLA's per-head k_b and
// v_b: Out[n, b] = Σ_k W[k, n, b] · In[k, b]) with each workgroup rounding
// its own input row in workgroup memory (xr_round) instead of a
// quantize_act dispatch before them. The rounding is quantize_act's and
// the sums are matmul.wgsl's over the same values, so the results are
// those of the two dispatches bit for bit. Words as matmul's (0 K, 1 N,
// 2 B, 3 T, 4 row bytes, In at 5, Out at 10, 26 the byte where W's row 0
// starts; no epilogue), 27 block size, 28 quantize_act's mode.
//!swap matvec_shape matvec_shape_wide
//!use common
//!dot
//!use matvec
//!reduce
//!use xr_round
//!twin X XR
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read_write> IN: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
// The matvec helpers' input, read here through their twins on XR; never
// bound.
@group(0) @binding(5) var<storage, read> X: array<vec4<f32>>;

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let K = pu(0u);
    let N = pu(1u);
    let B = pu(2u);
    let groups = wg_count(N);
    // this thread's matvec group's rows, and its place in the group
    let n0 = (g % groups) * WG_ROWS + group_row(l.li);
    let li = group_lane(l.li);
    let b = (g / groups) % B;
    let t = g / (groups * B);
    let live = t < pu(3u);
    for (var i = l.li; i < K; i += THREADS) {
        var x = 0.0;
        if (live) { x = IN[at(5u, i, b, t, 0u)]; }
        XR[i >> 2u][i & 3u] = x;
    }
    workgroupBarrier();
    round_xr(l.li, K, pu(27u), pu(28u));
    if (live && n0 < N) { accumulate_XR(0u, b * N + n0, N - n0, li, pu(26u)); }
    let s = reduce_rows(l);
    if (!live || li >= ROWS || n0 + li >= N) { return; }
    O[at(10u, n0 + li, b, t, 0u)] = s;
}
