// Q4_0 in the matvecs, against activations of 8-bit integers (xpart_q8):
// a block a thread, its 16 nibble bytes from five aligned loads (blocks of
// 18 bytes are 2-byte aligned), low and high nibbles dotted four at a time
// with the activations' bytes (dot4I8Packed, the GPU's integer dot
// product), and the block's integer total scaled once: d_w·d_x·(Σ q·x −
// 8·Σ x), the CPU's integers. The weight half is loaded once (wload) and
// dotted with each token (wdot): matvec_tokens decodes it once for several
// tokens; dot_part is the two in a row.
//!use decode_q4_0
//!use xpart_q8
struct WPart { lo: vec4<u32>, hi: vec4<u32>, d: f32 }
fn wload(rb: u32, blk: u32, part: u32) -> WPart {
    let o = rb + blk * 18u;
    let b = o + 2u;
    let c = b >> 2u;
    let w0 = W[c];
    let w1 = W[c + 1u];
    let w2 = W[c + 2u];
    let w3 = W[c + 3u];
    let w4 = W[c + 4u];
    let q = vec4<u32>(join32(w0, w1, b), join32(w1, w2, b), join32(w2, w3, b), join32(w3, w4, b));
    let m = vec4<u32>(0x0f0f0f0fu);
    return WPart(q & m, (q >> vec4<u32>(4u)) & m, h16(o));
}
fn wdot(w: WPart, x: XPart) -> f32 {
    return w.d * x.d * f32(dot4(w.lo, x.lo) + dot4(w.hi, x.hi) - 8 * x.sum);
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 { return wdot(wload(rb, blk, part), x); }
