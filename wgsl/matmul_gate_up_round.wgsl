// matmul_gate_up.wgsl for a decode step whose down product reads the
// SwiGLU rounded: the gate and up products of ROWS rows by WG threads, 16
// such groups a workgroup (matvec_shape_round), then the workgroup's 32
// values of silu(G)·U rounded as quantize_act would (round_rows), a
// dispatch fewer a layer. Sums and rounding are those of matmul_gate_up
// and quantize_act, bit for bit. Words as matmul_gate_up's (0 K, 1 N, 3
// T, 4 row bytes, In at 5, G at 10, U at 16, F at 21, 26 and 27 the bytes
// where W's and V's row 0 start), 28..33 round_rows'.
//!swap matvec_shape matvec_shape_round
//!use common
//!dot
//!use matvec
//!reduce
//!use silu
//!use round_rows
//!twin W V
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;
@group(0) @binding(7) var<storage, read> V: array<u32>;
@group(0) @binding(8) var<storage, read_write> Y: array<f32>;

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let N = pu(1u);
    let groups = wg_count(N);
    let n0 = (g % groups) * WG_ROWS + group_row(l.li);
    let li = group_lane(l.li);
    let t = g / groups;
    let live = t < pu(3u) && n0 < N;
    let xo = at(5u, 0u, 0u, t, 0u);
    if (live) { accumulate(xo, n0, N - n0, li, pu(26u)); }
    let gs = reduce_rows(l);
    // The second reduction reuses the workgroup memory the first one's
    // totals are still being read from.
    workgroupBarrier();
    for (var r = 0u; r < ROWS; r++) { acc[r] = 0.0; }
    if (live) { accumulate_V(xo, n0, N - n0, li, pu(27u)); }
    let us = reduce_rows(l);
    let own = live && li < ROWS && n0 + li < N;
    let n = n0 + li;
    let f = swiglu(gs, us);
    let r = at(21u, n, 0u, t, 0u);
    if (own) {
        O[at(10u, n, 0u, t, 0u)] = gs;
        E[at(16u, n, 0u, t, 0u)] = us;
        F[r] = f;
    }
    round_rows(l.li, own, f, r, 28u);
}
