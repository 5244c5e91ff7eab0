// Q4_0 in the tiled product, in integers (tile_mul_i8): a slice is one
// block, a part one word of its nibbles, made the signed bytes q − 8 of
// values 4p..4p+3 (low nibbles) and 16+4p..16+4p+3 (high). Blocks of 18
// bytes leave the word unaligned: it comes from two.
//!use decode_q4_0
//!swap tile_mul tile_mul_i8
//!use tile_x_q8
//!use bytes
const HAS_MIN = false;
const HALF_SCALES = false;
// signed4 is four nibbles (the low four bits of each byte) as the signed
// bytes q − 8: q ^ 8 is q − 8 in four bits, its bit 3 then copied into
// bits 4 to 7 (no carry crosses bytes).
fn signed4(q: u32) -> u32 {
    let t = (q & 0x0f0f0f0fu) ^ 0x08080808u;
    let s = t & 0x08080808u;
    return t | (s << 1u) | (s << 2u) | (s << 3u) | (s << 4u);
}
fn load_w(rb: u32, blk: u32, part: u32) -> vec2<u32> {
    let o = rb + blk * 18u + 2u + 4u * part;
    let q = join32(W[o >> 2u], W[(o >> 2u) + 1u], o);
    return vec2<u32>(signed4(q), signed4(q >> 4u));
}
// w_slots is where part p's two words sit among a row's eight.
fn w_slots(part: u32) -> vec2<u32> { return vec2<u32>(part, 4u + part); }
// load_dm is the block's scale (it has no minimum).
fn load_dm(rb: u32, blk: u32) -> vec2<f32> { return vec2<f32>(h16(rb + blk * 18u), 0.0); }
