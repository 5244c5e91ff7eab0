// Q4_1 in the tiled product, in integers (tile_mul_i8): a slice is one
// block, a part one word of its nibbles as unsigned bytes, values 4p..4p+3
// (low nibbles) and 16+4p..16+4p+3 (high), over activations packed as
// Q8_0 with their block sums (tile_x_q8): d_w·d_x·Σ q·x + m·d_x·Σ x, the
// minimum's term through HAS_MIN with −m as the row's minimum. Blocks of
// 20 bytes keep every field word-aligned.
//!use decode_q4_1
//!swap tile_mul tile_mul_i8
//!use tile_x_q8
const HAS_MIN = true;
const HALF_SCALES = false;
fn load_w(rb: u32, blk: u32, part: u32) -> vec2<u32> {
    let q = W[((rb + blk * 20u) >> 2u) + 1u + part];
    return vec2<u32>(q & 0x0f0f0f0fu, (q >> 4u) & 0x0f0f0f0fu);
}
// w_slots is where part p's two words sit among a row's eight.
fn w_slots(part: u32) -> vec2<u32> { return vec2<u32>(part, 4u + part); }
// load_dm is the block's scale and its minimum, negated.
fn load_dm(rb: u32, blk: u32) -> vec2<f32> {
    return scale_less_min(W[(rb + blk * 20u) >> 2u]);
}
