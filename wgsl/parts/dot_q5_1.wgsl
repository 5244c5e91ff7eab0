// Q5_1 in the matvecs: parts as in Q5_0 (xpart_halves); blocks of 24
// bytes keep every field word-aligned.
//!use decode_q5_1
//!use xpart_halves
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
    let o = (rb + blk * 24u) >> 2u;
    let dm = unpack2x16float(W[o]);
    let h = W[o + 1u];
    let q = W[o + 2u + part];
    let lo = nib4(q, 0u) + 16.0 * bit4(h, 4u * part);
    let hi = nib4(q, 4u) + 16.0 * bit4(h, 16u + 4u * part);
    return dm.x * (dot(lo, x.lo) + dot(hi, x.hi)) + dm.y * x.sum;
}
//!use wpart_lazy
