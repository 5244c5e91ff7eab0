// Q6_K in the matvecs, against activations of 8-bit integers (xpart_q8k):
// sixteen parts a super-block, eight per half of 128 values; part p takes
// l = 4(p % 8) .. +3 of half p / 8, the four values at l, l+32, l+64 and
// l+96 that share low-nibble and high-bit bytes, each set of four with its
// own scale. The 6-bit values are made signed bytes (q − 32) in the word
// and dotted four at a time with the activations' bytes (dot4I8Packed):
// d_x·d·Σ sc·Σ(q−32)·x, the CPU's integers.
//!use decode_q6_k
//!use xpart_q8k
const PARTS = 16u;
struct XPart { a: u32, b: u32, c: u32, e: u32, d: f32 }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    // the words of values l, l+32, l+64, l+96 (four values a word)
    let i = xo + ((blk * 256u + (part / 8u) * 128u + (part % 8u) * 4u) >> 2u);
    let w = vec4<u32>(i, i + 8u, i + 16u, i + 24u);
    return XPart(X[w.x >> 2u][w.x & 3u], X[w.y >> 2u][w.y & 3u], X[w.z >> 2u][w.z & 3u], X[w.w >> 2u][w.w & 3u], q8k_d(q8k_head(xo, blk)));
}
// The weight half of a part, loaded once (wload), and its dot with one
// token's activations (wdot); dot_part is the two in a row.
struct WPart { q: vec4<u32>, s: vec4<f32>, d: f32 }
fn wload(rb: u32, blk: u32, part: u32) -> WPart {
    let o = rb + blk * 210u;
    let n = part / 8u;
    let l = (part % 8u) * 4u;
    let a = w32(o + 64u * n + l);
    let c = w32(o + 64u * n + l + 32u);
    let h = w32(o + 128u + 32u * n + l);
    // Scales l/16, +2, +4, +6 of the half's eight.
    let sa = i8x4(w32(o + 192u + 8u * n));
    let sb = i8x4(w32(o + 196u + 8u * n));
    let is = l / 16u;
    let q = vec4<u32>(q6_signed(a, h, 0u), q6_signed(c, h, 2u), q6_signed(a >> 4u, h, 4u), q6_signed(c >> 4u, h, 6u));
    return WPart(q, vec4<f32>(sa[is], sa[is + 2u], sb[is], sb[is + 2u]), h16(o + 208u));
}
fn wdot(w: WPart, x: XPart) -> f32 {
    let s = w.s.x * f32(dot4I8Packed(w.q.x, x.a)) + w.s.y * f32(dot4I8Packed(w.q.y, x.b))
          + w.s.z * f32(dot4I8Packed(w.q.z, x.c)) + w.s.w * f32(dot4I8Packed(w.q.w, x.e));
    return x.d * w.d * s;
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 { return wdot(wload(rb, blk, part), x); }
