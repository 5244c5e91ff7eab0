// Q5_K in the tiled product, in integers (tile_mul_i8): slices and parts
// as in Q4_K (tile_q4_k), each value's fifth bit (bit s of its byte of
// the high bits, for sub-block s) put above its nibble, so a part is two
// words of unsigned bytes 0..31. Blocks of 176 bytes keep every field
// word-aligned.
//!use decode_q5_k
//!swap tile_mul tile_mul_i8
//!use tile_x_q8k
const HAS_MIN = true;
const HALF_SCALES = false;
fn load_w(rb: u32, blk: u32, part: u32) -> vec2<u32> {
    let s = blk % 8u;
    let o = (rb + (blk / 8u) * 176u) >> 2u;
    let q = o + 12u + 8u * (s / 2u) + 2u * part;
    let h = o + 4u + 2u * part;
    let sh = (s % 2u) * 4u;
    let lo = vec2<u32>((W[q] >> sh) & 0x0f0f0f0fu, (W[q + 1u] >> sh) & 0x0f0f0f0fu);
    let hi = vec2<u32>(((W[h] >> s) & 0x01010101u) << 4u, ((W[h + 1u] >> s) & 0x01010101u) << 4u);
    return lo | hi;
}
// w_slots is where part p's two words sit among a row's eight.
fn w_slots(part: u32) -> vec2<u32> { return vec2<u32>(2u * part, 2u * part + 1u); }
fn load_dm(rb: u32, blk: u32) -> vec2<f32> {
    let o = (rb + (blk / 8u) * 176u) >> 2u;
    return kscale_dm(W[o], vec3<u32>(W[o + 1u], W[o + 2u], W[o + 3u]), blk % 8u);
}
