// An activation row in workgroup memory (XR, read by the matvec helpers'
// twins), rounded there for the product as quantize_act.wgsl rounds it:
// the kernels that prepare their own input row (head_products,
// normed_product) instead of reading one a dispatch before rounded.
//!use round_q8
const KMAX = 2048u;
var<workgroup> XR: array<vec4<f32>, 512>;
// Per block of modes 0 and 1: the largest magnitude and the first value
// holding it.
var<workgroup> amax: array<f32, 64>;
var<workgroup> extreme: array<f32, 64>;

fn xr(i: u32) -> f32 { return XR[i >> 2u][i & 3u]; }

// round_xr rounds the K values of XR in quantize_act's mode with blocks of
// bs: the same block extremes (taken here by one thread a block, in
// order), scales and steps. Call from uniform control flow.
fn round_xr(li: u32, K: u32, bs: u32, mode: u32) {
    if (mode == 3u) { return; }
    if (mode < 2u) {
        for (var k = li; k < K / bs; k += WG) {
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
    for (var i = li; i < K; i += WG) {
        var y = half(xr(i));
        if (mode < 2u) { y = round_q8(xr(i), amax[i / bs], extreme[i / bs], mode); }
        XR[i >> 2u][i & 3u] = y;
    }
    workgroupBarrier();
}
