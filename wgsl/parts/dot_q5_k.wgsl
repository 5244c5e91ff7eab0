// Q5_K in the matvecs, against activations of 8-bit integers (xpart_q8k):
// parts as in Q4_K (dot_q4_k.wgsl), each nibble byte with its fifth bit
// from the high-bit bytes (bit 2g for group g's low sub-block, 2g+1 for
// its high one), the values 0..31 dotted four at a time with the
// activations' bytes and the minimums taken from the activations' sums.
// Blocks of 176 bytes keep every field word-aligned.
//!use decode_q5_k
//!use xpart_q8k_halves
// The weight half of a part, its 5-bit values assembled once (wload), and
// its dot with one token's activations (wdot); dot_part is the two in a row.
struct WPart { lo: vec4<u32>, hi: vec4<u32>, dm: vec2<f32>, slo: vec2<f32>, shi: vec2<f32> }
fn wload(rb: u32, blk: u32, part: u32) -> WPart {
    let o = (rb + blk * 176u) >> 2u;
    let g = part / 2u;
    let h = part % 2u;
    let sw = vec3<u32>(W[o + 1u], W[o + 2u], W[o + 3u]);
    let b = o + 4u + 4u * h;
    let qh = vec4<u32>(W[b], W[b + 1u], W[b + 2u], W[b + 3u]);
    let c = o + 12u + 8u * g + 4u * h;
    let q = vec4<u32>(W[c], W[c + 1u], W[c + 2u], W[c + 3u]);
    let m = vec4<u32>(0x0f0f0f0fu);
    let one = vec4<u32>(0x01010101u);
    let lo = (q & m) | (((qh >> vec4<u32>(2u * g)) & one) << vec4<u32>(4u));
    let hi = ((q >> vec4<u32>(4u)) & m) | (((qh >> vec4<u32>(2u * g + 1u)) & one) << vec4<u32>(4u));
    return WPart(lo, hi, unpack2x16float(W[o]), kscale_w(sw, 2u * g), kscale_w(sw, 2u * g + 1u));
}
fn wdot(w: WPart, x: XPart) -> f32 {
    let sl = f32(dot4(w.lo, x.lo));
    let sh = f32(dot4(w.hi, x.hi));
    return x.d * (w.dm.x * (w.slo.x * sl + w.shi.x * sh) - w.dm.y * (w.slo.y * x.slo + w.shi.y * x.shi));
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 { return wdot(wload(rb, blk, part), x); }
