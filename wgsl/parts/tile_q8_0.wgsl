// Q8_0 in the tiled product, in integers (tile_mul_i8): a slice is one
// block, a part eight of its signed bytes, which 34-byte blocks leave
// unaligned: they come from three words.
//!use decode_q8_0
//!swap tile_mul tile_mul_i8
//!use tile_x_q8
//!use bytes
const HAS_MIN = false;
const HALF_SCALES = false;
fn load_w(rb: u32, blk: u32, part: u32) -> vec2<u32> {
    let o = rb + blk * 34u + 2u + 8u * part;
    let c = o >> 2u;
    let w0 = W[c];
    let w1 = W[c + 1u];
    let w2 = W[c + 2u];
    return vec2<u32>(join32(w0, w1, o), join32(w1, w2, o));
}
fn w_slots(part: u32) -> vec2<u32> { return vec2<u32>(2u * part, 2u * part + 1u); }
// load_dm is the block's scale (it has no minimum).
fn load_dm(rb: u32, blk: u32) -> vec2<f32> { return vec2<f32>(h16(rb + blk * 34u), 0.0); }
