// Q4_K in the tiled product, in integers (tile_mul_i8): a slice is
// sub-block s of a super-block, a part two words of its nibbles (the low
// ones of group s / 2's bytes for even s, the high ones for odd) as
// unsigned bytes, with the sub-block's scale and minimum times the
// super-block's d and dmin. Blocks of 144 bytes keep every field
// word-aligned.
//!use decode_q4_k
//!swap tile_mul tile_mul_i8
//!use tile_x_q8k
const HAS_MIN = true;
const HALF_SCALES = false;
fn load_w(rb: u32, blk: u32, part: u32) -> vec2<u32> {
    let s = blk % 8u;
    let q = ((rb + (blk / 8u) * 144u) >> 2u) + 4u + 8u * (s / 2u) + 2u * part;
    let sh = (s % 2u) * 4u;
    return vec2<u32>((W[q] >> sh) & 0x0f0f0f0fu, (W[q + 1u] >> sh) & 0x0f0f0f0fu);
}
// w_slots is where part p's two words sit among a row's eight.
fn w_slots(part: u32) -> vec2<u32> { return vec2<u32>(2u * part, 2u * part + 1u); }
fn load_dm(rb: u32, blk: u32) -> vec2<f32> {
    let o = (rb + (blk / 8u) * 144u) >> 2u;
    return kscale_dm(W[o], vec3<u32>(W[o + 1u], W[o + 2u], W[o + 3u]), blk % 8u);
}
