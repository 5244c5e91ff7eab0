// Q5_0 in the matvecs: a part is one word of nibbles (xpart_halves), each with the
// matching four high bits of either half.
//!use decode_q5_0
//!use xpart_halves
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
    let o = rb + blk * 22u;
    let h = w32(o + 2u);
    let q = w32(o + 6u + 4u * part);
    let lo = nib4(q, 0u) + 16.0 * bit4(h, 4u * part) - 16.0;
    let hi = nib4(q, 4u) + 16.0 * bit4(h, 16u + 4u * part) - 16.0;
    return h16(o) * (dot(lo, x.lo) + dot(hi, x.hi));
}
//!use wpart_lazy
