// Q8_0 in the matvecs: four parts of 8 values (two words) a block.
//!use decode_q8_0
const PARTS = 4u;
struct XPart { a: vec4<f32>, b: vec4<f32> }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let i = (xo + blk * 32u + part * 8u) >> 2u;
    return XPart(X[i], X[i + 1u]);
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
    let o = rb + blk * 34u;
    let q = o + 2u + 8u * part;
    return h16(o) * (dot(i8x4(w32(q)), x.a) + dot(i8x4(w32(q + 4u)), x.b));
}
