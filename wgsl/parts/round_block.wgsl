// Rounding of activations to 8-bit blocks (quantize_act's modes 0 and 1)
// over a workgroup of 256 threads, one value each, blocks of bs = 32 or
// 256 values never straddling workgroups.
//!use round_q8
// Per block (up to 8 of 32): the largest magnitude's bits (non-negative
// floats order like their bits) and the first thread holding it, whose
// value sets the sign of a Q8_K scale as on the CPU.
var<workgroup> amax: array<atomic<u32>, 8>;
var<workgroup> first: array<atomic<u32>, 8>;
var<workgroup> vals: array<f32, 256>;
// Per block: its q8_scales, found by the block's first thread.
var<workgroup> scales: array<vec3<f32>, 8>;

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
    // Blocks start at multiples of bs in the workgroup, so this is one
    // thread a block, and the one that writes the block's scales.
    if (li % bs == 0u) { scales[slot] = q8_scales(m, vals[atomicLoad(&first[slot])], mode); }
    workgroupBarrier();
    return q8_round(x, scales[slot], mode);
}
