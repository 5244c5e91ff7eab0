// Activations of a matvec part of the 32-value blocks whose nibble bytes
// hold values j and j+16 (Q4_1, Q5_0, Q5_1; dot_q4_0 takes two words a
// part): four parts a block, part p taking values 4p..4p+3 and
// 16+4p..16+4p+3. sum (for the blocks with a minimum) is the same for
// every row, so it is taken once here.
//!use xword
const PARTS = 4u;
struct XPart { lo: vec4<f32>, hi: vec4<f32>, sum: f32 }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let i = (xo + blk * 32u + part * 4u) >> 2u;
    let lo = xf(i);
    let hi = xf(i + 4u);
    return XPart(lo, hi, hsum(lo + hi));
}
