// Q4_K in the matvecs: sixteen parts a super-block (xpart_k). Blocks of
// 144 bytes keep every field word-aligned.
//!use decode_q4_k
//!use xpart_k
// The weight half of a part, decoded once (wload), and its dot with one
// token's activations (wdot): dot_part's expression term for term, split
// as dot_q4_0.wgsl splits its own.
struct WPart { l0: vec4<f32>, l1: vec4<f32>, h0: vec4<f32>, h1: vec4<f32>, dm: vec2<f32>, lo: vec2<f32>, hi: vec2<f32> }
fn wload(rb: u32, blk: u32, part: u32) -> WPart {
    let o = (rb + blk * 144u) >> 2u;
    let g = part / 4u;
    let sw = vec3<u32>(W[o + 1u], W[o + 2u], W[o + 3u]);
    let q = o + 4u + 8u * g + 2u * (part % 4u);
    let q0 = W[q];
    let q1 = W[q + 1u];
    return WPart(nib4(q0, 0u), nib4(q1, 0u), nib4(q0, 4u), nib4(q1, 4u), unpack2x16float(W[o]), kscale_w(sw, 2u * g), kscale_w(sw, 2u * g + 1u));
}
fn wdot(w: WPart, x: XPart) -> f32 {
    let sl = dot(w.l0, x.l0) + dot(w.l1, x.l1);
    let sh = dot(w.h0, x.h0) + dot(w.h1, x.h1);
    return w.dm.x * (w.lo.x * sl + w.hi.x * sh) - w.dm.y * (w.lo.y * x.sl + w.hi.y * x.sh);
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
    let o = (rb + blk * 144u) >> 2u;
    let g = part / 4u;
    let dm = unpack2x16float(W[o]);
    let sw = vec3<u32>(W[o + 1u], W[o + 2u], W[o + 3u]);
    let lo = kscale_w(sw, 2u * g);
    let hi = kscale_w(sw, 2u * g + 1u);
    let q = o + 4u + 8u * g + 2u * (part % 4u);
    let q0 = W[q];
    let q1 = W[q + 1u];
    let sl = dot(nib4(q0, 0u), x.l0) + dot(nib4(q1, 0u), x.l1);
    let sh = dot(nib4(q0, 4u), x.h0) + dot(nib4(q1, 4u), x.h1);
    return dm.x * (lo.x * sl + hi.x * sh) - dm.y * (lo.y * x.sl + hi.y * x.sh);
}
