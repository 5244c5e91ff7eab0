// Rounding of activations to 8-bit blocks (quantize_act's modes 0 and 1)
// over a workgroup of 256 threads, one value each, blocks of bs = 32 or
// 256 values never straddling workgroups. Its divisions are rounded as
// the CPU's (div_exact): WGSL lets a / b be off by a few ulps, and a scale
// an ulp off moves every value of the block.
//!use exact_math
// Per block (up to 8 of 32): the largest magnitude's bits (non-negative
// floats order like their bits) and the first thread holding it, whose
// value sets the sign of a Q8_K scale as on the CPU.
var<workgroup> amax: array<atomic<u32>, 8>;
var<workgroup> first: array<atomic<u32>, 8>;
var<workgroup> vals: array<f32, 256>;
// The block's scales as the CPU stores them, set by round_block: mode 0
// the f16 d and the f32 one it is rounded from (Q8_1's sum is scaled by
// that), mode 1 the f32 d. The exact products recover the 8-bit values
// and multiply by these as the CPU does (write_scales).
var<private> block_scales: vec2<f32>;

// round_block returns thread li's value x rounded in mode 0 (Q8_0: f16
// scale from the largest magnitude) or 1 (Q8_K: f32 scale from the signed
// extreme); threads past the data pass 0. Call from uniform control flow.
fn round_block(x: f32, li: u32, bs: u32, mode: u32) -> f32 {
    let slot = min(li / bs, 7u);
    if (li < 8u) {
        atomicStore(&amax[li], 0u);
        atomicStore(&first[li], 256u);
    }
    vals[li] = x;
    workgroupBarrier();
    atomicMax(&amax[slot], bitcast<u32>(abs(x)));
    workgroupBarrier();
    let m = bitcast<f32>(atomicLoad(&amax[slot]));
    if (abs(x) == m) { atomicMin(&first[slot], li); }
    workgroupBarrier();
    if (mode == 0u) {
        let d32 = div_exact(m, 127.0);
        let d = half(d32);
        block_scales = vec2<f32>(d, d32);
        var id = 0.0;
        if (m != 0.0) { id = div_exact(127.0, m); }
        return d * round(x * id);
    }
    block_scales = vec2<f32>(0.0);
    if (m == 0.0) { return 0.0; }
    let iscale = div_exact(-127.0, vals[atomicLoad(&first[slot])]);
    block_scales.x = div_exact(1.0, iscale);
    return block_scales.x * min(127.0, round(iscale * x));
}

// write_scales stores block_scales of the block value u (of a packed
// rounded tensor of `values` values, blocks of bs) starts, past the
// values: two floats a block.
fn write_scales(u: u32, values: u32, bs: u32) {
    if (u % bs == 0u) {
        Y[values + 2u * (u / bs)] = block_scales.x;
        Y[values + 2u * (u / bs) + 1u] = block_scales.y;
    }
}
