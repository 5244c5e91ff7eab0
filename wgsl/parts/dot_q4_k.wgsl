// Q4_K in the matvecs, against activations of 8-bit integers (xpart_q8k):
// eight parts a super-block, part p taking 16 nibble bytes of group p/2 of
// 64 values (its low nibbles: sub-block 2g's values 16h..16h+15, the high:
// sub-block 2g+1's, h = p%2), dotted four at a time with the activations'
// bytes (dot4I8Packed); the minimums take the activations' sums of 16
// (bsums), as llama.cpp's CPU kernel: d_x·(d·Σ sc·Σq·x − dmin·Σ m·Σx).
// Blocks of 144 bytes keep every field word-aligned.
//!use decode_q4_k
//!use xpart_q8k_halves
// The weight half of a part, loaded once (wload), and its dot with one
// token's activations (wdot); dot_part is the two in a row.
struct WPart { q: vec4<u32>, dm: vec2<f32>, lo: vec2<f32>, hi: vec2<f32> }
fn wload(rb: u32, blk: u32, part: u32) -> WPart {
    let o = (rb + blk * 144u) >> 2u;
    let g = part / 2u;
    let sw = vec3<u32>(W[o + 1u], W[o + 2u], W[o + 3u]);
    let q = o + 4u + 8u * g + 4u * (part % 2u);
    return WPart(vec4<u32>(W[q], W[q + 1u], W[q + 2u], W[q + 3u]), unpack2x16float(W[o]), kscale_w(sw, 2u * g), kscale_w(sw, 2u * g + 1u));
}
fn wdot(w: WPart, x: XPart) -> f32 {
    let m = vec4<u32>(0x0f0f0f0fu);
    let sl = f32(dot4(w.q & m, x.lo));
    let sh = f32(dot4((w.q >> vec4<u32>(4u)) & m, x.hi));
    return x.d * (w.dm.x * (w.lo.x * sl + w.hi.x * sh) - w.dm.y * (w.lo.y * x.slo + w.hi.y * x.shi));
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 { return wdot(wload(rb, blk, part), x); }
