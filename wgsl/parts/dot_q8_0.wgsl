// Q8_0 in the matvecs, against activations of 8-bit integers (xpart_q8):
// a block a thread, its 32 weight bytes from nine aligned loads (blocks of
// 34 bytes are 2-byte aligned), dotted four at a time with the
// activations' bytes (dot4I8Packed) and scaled once: d_w·d_x·Σ q·x, the
// CPU's integers. wload, wdot and dot_part as in dot_q4_0.wgsl.
//!use decode_q8_0
//!use xpart_q8
struct WPart { lo: vec4<u32>, hi: vec4<u32>, d: f32 }
fn wload(rb: u32, blk: u32, part: u32) -> WPart {
    let o = rb + blk * 34u;
    let b = o + 2u;
    let c = b >> 2u;
    let w0 = W[c];
    let w1 = W[c + 1u];
    let w2 = W[c + 2u];
    let w3 = W[c + 3u];
    let w4 = W[c + 4u];
    let w5 = W[c + 5u];
    let w6 = W[c + 6u];
    let w7 = W[c + 7u];
    let w8 = W[c + 8u];
    let lo = vec4<u32>(join32(w0, w1, b), join32(w1, w2, b), join32(w2, w3, b), join32(w3, w4, b));
    let hi = vec4<u32>(join32(w4, w5, b), join32(w5, w6, b), join32(w6, w7, b), join32(w7, w8, b));
    return WPart(lo, hi, h16(o));
}
fn wdot(w: WPart, x: XPart) -> f32 { return w.d * x.d * f32(dot4(w.lo, x.lo) + dot4(w.hi, x.hi)); }
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 { return wdot(wload(rb, blk, part), x); }
