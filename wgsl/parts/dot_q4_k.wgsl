// Q4_K in the matvecs: sixteen parts a super-block (xpart_k). Blocks of
// 144 bytes keep every field word-aligned.
//!use decode_q4_k
//!use xpart_k
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
//!use wpart_lazy
