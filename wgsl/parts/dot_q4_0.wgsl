// Q4_0 in the matvecs: a part is one word of nibbles (xpart_halves).
//!use decode_q4_0
//!use xpart_halves
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 {
    let o = rb + blk * 18u;
    let q = w32(o + 2u + 4u * part);
    return h16(o) * (dot(nib4(q, 0u) - 8.0, x.lo) + dot(nib4(q, 4u) - 8.0, x.hi));
}
