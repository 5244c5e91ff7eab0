// A decode step's batched products of small rows (MLA's per-head k_b and
// v_b: Out[n, b] = Σ_k W[k, n, b] · In[k, b]) with each workgroup rounding
// its own input row into workgroup memory (XR) the way quantize_act.wgsl
// rounds it for the product, instead of a quantize_act dispatch before
// them. The rounding is quantize_act's: the same block extremes (taken
// here by one thread a block, in order), the same scales and steps; the
// sums are matmul.wgsl's over the same values, so the results are those
// of the two dispatches bit for bit. Words as matmul's (0 K, 1 N, 2 B,
// 3 T, 4 row bytes, In at 5, Out at 10, 26 the byte where W's row 0
// starts; no epilogue), 27 block size, 28 quantize_act's mode.
//!use common
//!dot
//!use matvec
//!reduce
//!use round_q8
//!twin X XR
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read_write> IN: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
// The matvec helpers' input, read here through their twins on XR; never
// bound.
@group(0) @binding(5) var<storage, read> X: array<vec4<f32>>;

// KMAX is the longest row: XR holds one.
const KMAX = 1024u;
var<workgroup> XR: array<vec4<f32>, 256>;
// Per block of modes 0 and 1: the largest magnitude and the first value
// holding it.
var<workgroup> amax: array<f32, 32>;
var<workgroup> extreme: array<f32, 32>;

fn xr(i: u32) -> f32 { return XR[i >> 2u][i & 3u]; }

// rounded is value i of the row, x, as quantize_act writes it.
fn rounded(x: f32, i: u32, bs: u32, mode: u32) -> f32 {
    if (mode == 3u) { return x; }
    if (mode == 2u) { return half(x); }
    return round_q8(x, amax[i / bs], extreme[i / bs], mode);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let K = pu(0u);
    let N = pu(1u);
    let B = pu(2u);
    let groups = (N + ROWS - 1u) / ROWS;
    let n0 = (g % groups) * ROWS;
    let b = (g / groups) % B;
    let t = g / (groups * B);
    let live = t < pu(3u);
    let bs = pu(27u);
    let mode = pu(28u);
    for (var i = l.li; i < K; i += WG) {
        var x = 0.0;
        if (live) { x = IN[at(5u, i, b, t, 0u)]; }
        XR[i >> 2u][i & 3u] = x;
    }
    workgroupBarrier();
    if (mode < 2u) {
        for (var k = l.li; k < K / bs; k += WG) {
            var m = 0.0;
            var v = 0.0;
            for (var i = k * bs; i < (k + 1u) * bs; i++) {
                let x = xr(i);
                if (abs(x) > m) {
                    m = abs(x);
                    v = x;
                }
            }
            amax[k] = m;
            extreme[k] = v;
        }
        workgroupBarrier();
    }
    for (var i = l.li; i < K; i += WG) { XR[i >> 2u][i & 3u] = rounded(xr(i), i, bs, mode); }
    workgroupBarrier();
    if (live) { accumulate_XR(0u, b * N + n0, N - n0, l.li, pu(26u)); }
    let s = reduce_rows(l);
    if (!live || l.li >= ROWS || n0 + l.li >= N) { return; }
    O[at(10u, n0 + l.li, b, t, 0u)] = s;
}
