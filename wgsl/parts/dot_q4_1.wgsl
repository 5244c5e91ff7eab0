// Q4_1 in the matvecs: a part is one word of nibbles (xpart_halves); blocks of 20
// bytes keep every field word-aligned.
//!use decode_q4_1
//!use xpart_halves
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
    let o = (rb + blk * 20u) >> 2u;
    let dm = unpack2x16float(W[o]);
    let q = W[o + 1u + part];
    return dm.x * (dot(nib4(q, 0u), x.lo) + dot(nib4(q, 4u), x.hi)) + dm.y * x.sum;
}
//!use wpart_lazy
