// Activations of a matvec part of Q4_K and Q5_K super-blocks: sixteen
// parts, four per group of 64 values; part p takes 8 values of the group's
// low sub-block and the 8 matching ones of its high sub-block (bytes
// 8s..8s+7, s = p % 4, of the group's nibbles). The sums of each half feed
// the minimums and are the same for every row.
//!use xword
const PARTS = 16u;
struct XPart { l0: vec4<f32>, l1: vec4<f32>, h0: vec4<f32>, h1: vec4<f32>, sl: f32, sh: f32 }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let i = (xo + blk * 256u + (part / 4u) * 64u + (part % 4u) * 8u) >> 2u;
    let l0 = xf(i);
    let l1 = xf(i + 1u);
    let h0 = xf(i + 8u);
    let h1 = xf(i + 9u);
    return XPart(l0, l1, h0, h1, hsum(l0 + l1), hsum(h0 + h1));
}
