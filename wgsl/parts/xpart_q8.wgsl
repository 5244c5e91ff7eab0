// Activations of the integer matvecs (dot_q4_0, dot_q8_0), packed by
// quantize_act's mode 4 (round_block): a row of K values at word xo holds
// block b's 32 signed 8-bit values in words xo+8b .. xo+8b+7, and its
// scale and the sum of its integers (both as f32 bits) in words
// xo+K/4+2b and the one after. A part is a whole block: its 32 bytes are
// two vec4 loads, dotted four at a time with the weights' bytes.
//!use dot4_i8
const PARTS = 1u;
struct XPart { lo: vec4<u32>, hi: vec4<u32>, d: f32, sum: i32 }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let i = (xo >> 2u) + blk * 2u;
    let s = X[(xo + pu(P_K) / 4u + 2u * blk) >> 2u];
    let ds = select(s.xy, s.zw, (blk & 1u) != 0u);
    return XPart(X[i], X[i + 1u], bitcast<f32>(ds.x), i32(bitcast<f32>(ds.y)));
}
