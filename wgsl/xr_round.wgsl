// An activation row in workgroup memory (XR, read by the matvec helpers'
// twins), rounded there for the product as quantize_act.wgsl rounds it:
// the kernels that prepare their own input rows (head_products,
// normed_product, moe_down) instead of reading ones a dispatch before
// rounded.
//!use round_q8
const KMAX = 2048u;
var<workgroup> XR: array<vec4<f32>, 512>;
// Per block of modes 0 and 1: the largest magnitude's bits (non-negative
// floats order like their bits), the first element holding it (whose
// value sets the sign of a Q8_K scale), and the block's q8_scales.
var<workgroup> xr_amax: array<atomic<u32>, 64>;
var<workgroup> xr_first: array<atomic<u32>, 64>;
var<workgroup> xr_scales: array<vec3<f32>, 64>;

fn xr(i: u32) -> f32 { return XR[i >> 2u][i & 3u]; }

// round_xr rounds the K values of XR in quantize_act's mode with blocks of
// bs: the same block extremes (found by every thread at once; a maximum
// and a first position do not depend on the order), scales and steps.
// Call from uniform control flow.
fn round_xr(li: u32, K: u32, bs: u32, mode: u32) { round_xr_range(li, 0u, K, bs, mode); }

// round_xr_range is round_xr of values lo .. hi-1 alone, lo a block's
// first: the share of one of the workgroups that split a row's rounding.
fn round_xr_range(li: u32, lo: u32, hi: u32, bs: u32, mode: u32) {
    if (mode == 3u) { return; }
    if (mode < 2u) {
        for (var b = li; b < 64u; b += THREADS) {
            atomicStore(&xr_amax[b], 0u);
            atomicStore(&xr_first[b], KMAX);
        }
        workgroupBarrier();
        for (var i = lo + li; i < hi; i += THREADS) { atomicMax(&xr_amax[i / bs], bitcast<u32>(abs(xr(i)))); }
        workgroupBarrier();
        for (var i = lo + li; i < hi; i += THREADS) {
            if (bitcast<u32>(abs(xr(i))) == atomicLoad(&xr_amax[i / bs])) { atomicMin(&xr_first[i / bs], i); }
        }
        workgroupBarrier();
        for (var b = lo / bs + li; b < (hi + bs - 1u) / bs; b += THREADS) {
            xr_scales[b] = q8_scales(bitcast<f32>(atomicLoad(&xr_amax[b])), xr(atomicLoad(&xr_first[b])), mode);
        }
        workgroupBarrier();
    }
    for (var i = lo + li; i < hi; i += THREADS) {
        var y = half(xr(i));
        if (mode < 2u) { y = q8_round(xr(i), xr_scales[i / bs], mode); }
        XR[i >> 2u][i & 3u] = y;
    }
    workgroupBarrier();
}
