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

// Mode 4 packs the Q8_0 rounding for the integer matvecs (xpart_q8): a
// row of K values keeps block b's integers four to a word in words 8b ..
// 8b+7 and its f16 scale and integer sum, as f32 bits, in words K/4+2b
// and K/4+2b+1. Mode 5 packs the Q8_K rounding (xpart_q8k): the integers
// likewise, and for super-block b its f32 scale in word K/4+20b and the
// sums of its runs of 16 integers, as i32, in words K/4+20b+4 .. +19.
var<workgroup> ints: array<i32, 256>;

// A word for thread li to write (write), at word `at` of its value's row.
struct Store { at: u32, bits: u32, write: bool }

// round_store is what thread li writes of its value x, element i of a row
// of K, rounded in mode (0..3: the rounded float's bits at word i; 4: the
// packed row's words, each by one thread of the block). Threads past the
// data pass 0 and write nothing. Call from uniform control flow.
fn round_store(x: f32, li: u32, i: u32, K: u32, bs: u32, mode: u32) -> Store {
    if (mode == 2u || mode == 3u) { return Store(i, bitcast<u32>(select(x, half(x), mode == 2u)), true); }
    if (mode < 2u) { return Store(i, bitcast<u32>(round_block(x, li, bs, mode)), true); }
    if (mode == 5u) { return round_store_k(x, li, i, K); }
    _ = round_block(x, li, 32u, 0u); // for its block scales
    let s = scales[min(li / 32u, 7u)];
    ints[li] = q8_int(x, s);
    workgroupBarrier();
    let j = li % 32u;
    let head = K / 4u + 2u * (i / 32u);
    if (j % 4u == 0u) { return Store(i / 4u, pack_q8(ints[li], ints[li + 1u], ints[li + 2u], ints[li + 3u]), true); }
    if (j == 1u) {
        var sum = 0;
        for (var k = li - 1u; k < li + 31u; k++) { sum += ints[k]; }
        return Store(head + 1u, bitcast<u32>(f32(sum)), true);
    }
    return Store(head, bitcast<u32>(s.x), j == 2u);
}

// round_store_k is round_store's mode 5: a workgroup's 256 values are one
// super-block.
fn round_store_k(x: f32, li: u32, i: u32, K: u32) -> Store {
    _ = round_block(x, li, 256u, 1u); // for its block scale
    let s = scales[0];
    ints[li] = q8k_int(x, s);
    workgroupBarrier();
    let head = K / 4u + 20u * (i / 256u);
    if (li % 4u == 0u) { return Store(i / 4u, pack_q8(ints[li], ints[li + 1u], ints[li + 2u], ints[li + 3u]), true); }
    if (li % 16u == 1u) {
        var sum = 0;
        for (var k = li - 1u; k < li + 15u; k++) { sum += ints[k]; }
        return Store(head + 4u + li / 16u, bitcast<u32>(sum), true);
    }
    return Store(head, bitcast<u32>(s.x), li == 2u);
}
