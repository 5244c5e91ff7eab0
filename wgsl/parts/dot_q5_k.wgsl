// Q5_K in the matvecs: parts as in Q4_K (xpart_k), each with the matching
// 8 bytes of high bits (bit 2g of a byte for group g's low sub-block,
// 2g+1 for its high one). Blocks of 176 bytes keep every field
// word-aligned.
//!use decode_q5_k
//!use xpart_k
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
    let o = (rb + blk * 176u) >> 2u;
    let g = part / 4u;
    let s = part % 4u;
    let dm = unpack2x16float(W[o]);
    let sw = vec3<u32>(W[o + 1u], W[o + 2u], W[o + 3u]);
    let lo = kscale_w(sw, 2u * g);
    let hi = kscale_w(sw, 2u * g + 1u);
    let h0 = W[o + 4u + 2u * s];
    let h1 = W[o + 5u + 2u * s];
    let q = o + 12u + 8u * g + 2u * s;
    let q0 = W[q];
    let q1 = W[q + 1u];
    let sl = dot(nib4(q0, 0u) + 16.0 * bits4(h0, 2u * g), x.l0) + dot(nib4(q1, 0u) + 16.0 * bits4(h1, 2u * g), x.l1);
    let sh = dot(nib4(q0, 4u) + 16.0 * bits4(h0, 2u * g + 1u), x.h0) + dot(nib4(q1, 4u) + 16.0 * bits4(h1, 2u * g + 1u), x.h1);
    return dm.x * (lo.x * sl + hi.x * sh) - dm.y * (lo.y * x.sl + hi.y * x.sh);
}
//!use wpart_lazy
