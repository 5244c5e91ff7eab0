// Q4_0 in the matvecs: two parts a block, part p taking nibble bytes
// 8p..8p+7 (values 8p..8p+7 and 16+8p..16+8p+7). Eight bytes a part keep
// more of W in flight per thread than a word would, and the part's two
// words come from three aligned loads (blocks of 18 bytes are 2-byte
// aligned) where reading each word alone takes two.
//!use decode_q4_0
const PARTS = 2u;
struct XPart { l0: vec4<f32>, l1: vec4<f32>, h0: vec4<f32>, h1: vec4<f32> }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let i = (xo + blk * 32u + part * 8u) >> 2u;
    return XPart(X[i], X[i + 1u], X[i + 4u], X[i + 5u]);
}
// The weight half of a part, decoded once (wload), and its dot with one
// token's activations (wdot): matvec_tokens decodes a part once for
// several tokens. Together they are dot_part's expression, term for term
// (the batch tests hold the results to the same bits); dot_part keeps its
// own body, which the lone token's decode compiles to faster code.
struct WPart { l0: vec4<f32>, l1: vec4<f32>, h0: vec4<f32>, h1: vec4<f32>, d: f32 }
fn wload(rb: u32, blk: u32, part: u32) -> WPart {
    let o = rb + blk * 18u;
    let b = o + 2u + 8u * part;
    let c = b >> 2u;
    let w0 = W[c];
    let w1 = W[c + 1u];
    let w2 = W[c + 2u];
    let q0 = join32(w0, w1, b);
    let q1 = join32(w1, w2, b);
    return WPart(nib4(q0, 0u) - 8.0, nib4(q1, 0u) - 8.0, nib4(q0, 4u) - 8.0, nib4(q1, 4u) - 8.0, h16(o));
}
fn wdot(w: WPart, x: XPart) -> f32 {
    let lo = dot(w.l0, x.l0) + dot(w.l1, x.l1);
    let hi = dot(w.h0, x.h0) + dot(w.h1, x.h1);
    return w.d * (lo + hi);
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
    let o = rb + blk * 18u;
    let b = o + 2u + 8u * part;
    let c = b >> 2u;
    let w0 = W[c];
    let w1 = W[c + 1u];
    let w2 = W[c + 2u];
    let q0 = join32(w0, w1, b);
    let q1 = join32(w1, w2, b);
    let lo = dot(nib4(q0, 0u) - 8.0, x.l0) + dot(nib4(q1, 0u) - 8.0, x.l1);
    let hi = dot(nib4(q0, 4u) - 8.0, x.h0) + dot(nib4(q1, 4u) - 8.0, x.h1);
    return h16(o) * (lo + hi);
}
