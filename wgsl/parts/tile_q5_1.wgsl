// Q5_1 in the tiled product, in integers (tile_mul_i8): as Q5_0
// (tile_q5_0: nibbles and fifth bits) but unsigned, with a minimum as
// Q4_1 has (tile_q4_1: −m as the row's minimum against the activations'
// block sums). Blocks of 24 bytes keep every field word-aligned.
//!use decode_q5_1
//!swap tile_mul tile_mul_i8
//!use tile_x_q8
//!use bytes
const HAS_MIN = true;
const HALF_SCALES = false;
fn load_w(rb: u32, blk: u32, part: u32) -> vec2<u32> {
    let o = (rb + blk * 24u) >> 2u;
    let h = W[o + 1u];
    let q = W[o + 2u + part];
    return vec2<u32>(nib5(q, h >> (4u * part)), nib5(q >> 4u, h >> (16u + 4u * part)));
}
fn w_slots(part: u32) -> vec2<u32> { return vec2<u32>(part, 4u + part); }
// load_dm is the block's scale and its minimum, negated.
fn load_dm(rb: u32, blk: u32) -> vec2<f32> {
    return scale_less_min(W[(rb + blk * 24u) >> 2u]);
}
