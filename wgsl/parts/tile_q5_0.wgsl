// Q5_0 in the tiled product, in integers (tile_mul_i8): a slice is one
// block, a part one word of its nibbles with each value's fifth bit (bit
// j of the block's high bits for value j) put above it, values 4p..4p+3
// (low nibbles) and 16+4p..16+4p+3 (high), made the signed bytes q − 16.
// Blocks of 22 bytes leave the words unaligned: they come from two.
//!use decode_q5_0
//!swap tile_mul tile_mul_i8
//!use tile_x_q8
//!use bytes
const HAS_MIN = false;
const HALF_SCALES = false;
fn load_w(rb: u32, blk: u32, part: u32) -> vec2<u32> {
    let o = rb + blk * 22u;
    let h = w32(o + 2u);
    let q = w32(o + 6u + 4u * part);
    return vec2<u32>(signed5(nib5(q, h >> (4u * part))), signed5(nib5(q >> 4u, h >> (16u + 4u * part))));
}
// signed5 is four 5-bit values as the signed bytes q − 16: q ^ 16 is
// q − 16 in five bits, its bit 4 then copied into bits 5 to 7.
fn signed5(q: u32) -> u32 {
    let t = q ^ 0x10101010u;
    let s = t & 0x10101010u;
    return t | (s << 1u) | (s << 2u) | (s << 3u);
}
fn w_slots(part: u32) -> vec2<u32> { return vec2<u32>(part, 4u + part); }
// load_dm is the block's scale (it has no minimum).
fn load_dm(rb: u32, blk: u32) -> vec2<f32> { return vec2<f32>(h16(rb + blk * 22u), 0.0); }
