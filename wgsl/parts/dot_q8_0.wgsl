// Q8_0 in the matvecs: two parts of 16 values a block, each four words
// from five aligned loads (blocks of 34 bytes are 2-byte aligned), so a
// thread has more of W in flight than with a word or two a part.
//!use decode_q8_0
const PARTS = 2u;
struct XPart { a0: vec4<f32>, a1: vec4<f32>, a2: vec4<f32>, a3: vec4<f32> }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let i = (xo + blk * 32u + part * 16u) >> 2u;
    return XPart(X[i], X[i + 1u], X[i + 2u], X[i + 3u]);
}
// The weight half of a part, decoded once (wload), and its dot with one
// token's activations (wdot): dot_part's expression, split as
// dot_q4_0.wgsl splits its own.
struct WPart { a0: vec4<f32>, a1: vec4<f32>, a2: vec4<f32>, a3: vec4<f32>, d: f32 }
fn wload(rb: u32, blk: u32, part: u32) -> WPart {
    let o = rb + blk * 34u;
    let b = o + 2u + 16u * part;
    let c = b >> 2u;
    let w0 = W[c];
    let w1 = W[c + 1u];
    let w2 = W[c + 2u];
    let w3 = W[c + 3u];
    let w4 = W[c + 4u];
    return WPart(i8x4(join32(w0, w1, b)), i8x4(join32(w1, w2, b)), i8x4(join32(w2, w3, b)), i8x4(join32(w3, w4, b)), h16(o));
}
fn wdot(w: WPart, x: XPart) -> f32 {
    let s = dot(w.a0, x.a0) + dot(w.a1, x.a1) + dot(w.a2, x.a2) + dot(w.a3, x.a3);
    return w.d * s;
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
    let o = rb + blk * 34u;
    let b = o + 2u + 16u * part;
    let c = b >> 2u;
    let w0 = W[c];
    let w1 = W[c + 1u];
    let w2 = W[c + 2u];
    let w3 = W[c + 3u];
    let w4 = W[c + 4u];
    let s = dot(i8x4(join32(w0, w1, b)), x.a0) + dot(i8x4(join32(w1, w2, b)), x.a1) + dot(i8x4(join32(w2, w3, b)), x.a2) + dot(i8x4(join32(w3, w4, b)), x.a3);
    return h16(o) * s;
}
