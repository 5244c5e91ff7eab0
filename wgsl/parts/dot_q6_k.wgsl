// Q6_K in the matvecs: sixteen parts a super-block, eight per half of 128
// values; part p takes l = 4(p % 8) .. +3 of half p / 8, the four values
// at l, l+32, l+64 and l+96 that share low-nibble and high-bit bytes, each
// with its own scale.
//!use decode_q6_k
//!use xword
const PARTS = 16u;
struct XPart { a: vec4<f32>, b: vec4<f32>, c: vec4<f32>, d: vec4<f32> }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let i = (xo + blk * 256u + (part / 8u) * 128u + (part % 8u) * 4u) >> 2u;
    return XPart(xf(i), xf(i + 8u), xf(i + 16u), xf(i + 24u));
}
// The weight half of a part, decoded once (wload), and its dot with one
// token's activations (wdot): dot_part's expression term for term, split
// as dot_q4_0.wgsl splits its own.
struct WPart { q1: vec4<f32>, q2: vec4<f32>, q3: vec4<f32>, q4: vec4<f32>, s: vec4<f32>, d: f32 }
fn wload(rb: u32, blk: u32, part: u32) -> WPart {
    let o = rb + blk * 210u;
    let n = part / 8u;
    let l = (part % 8u) * 4u;
    let a = w32(o + 64u * n + l);
    let c = w32(o + 64u * n + l + 32u);
    let h = w32(o + 128u + 32u * n + l);
    let sa = i8x4(w32(o + 192u + 8u * n));
    let sb = i8x4(w32(o + 196u + 8u * n));
    let is = l / 16u;
    return WPart(nib4(a, 0u) + 16.0 * crumb4(h, 0u) - 32.0, nib4(c, 0u) + 16.0 * crumb4(h, 2u) - 32.0,
        nib4(a, 4u) + 16.0 * crumb4(h, 4u) - 32.0, nib4(c, 4u) + 16.0 * crumb4(h, 6u) - 32.0,
        vec4<f32>(sa[is], sa[is + 2u], sb[is], sb[is + 2u]), h16(o + 208u));
}
fn wdot(w: WPart, x: XPart) -> f32 {
    return w.d * (w.s.x * dot(w.q1, x.a) + w.s.y * dot(w.q2, x.b) + w.s.z * dot(w.q3, x.c) + w.s.w * dot(w.q4, x.d));
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
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
    let q1 = nib4(a, 0u) + 16.0 * crumb4(h, 0u) - 32.0;
    let q2 = nib4(c, 0u) + 16.0 * crumb4(h, 2u) - 32.0;
    let q3 = nib4(a, 4u) + 16.0 * crumb4(h, 4u) - 32.0;
    let q4 = nib4(c, 4u) + 16.0 * crumb4(h, 6u) - 32.0;
    return h16(o + 208u) * (sa[is] * dot(q1, x.a) + sa[is + 2u] * dot(q2, x.b) + sb[is] * dot(q3, x.c) + sb[is + 2u] * dot(q4, x.d));
}
