// The activations of a part of the Q4_K and Q5_K integer matvecs: eight
// parts a super-block, part p taking half h = p%2 of group g = p/2 of 64
// values, its 16 low-sub-block values from 64g+16h and the 16 high ones
// 32 after, with the sums of both runs for the minimums (xpart_q8k).
//!use xpart_q8k
const PARTS = 8u;
struct XPart { lo: vec4<u32>, hi: vec4<u32>, d: f32, slo: f32, shi: f32 }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let g = part / 2u;
    let h = part % 2u;
    let v = blk * 256u + 64u * g + 16u * h;
    let hd = q8k_head(xo, blk);
    return XPart(q8k_ints(xo, v), q8k_ints(xo, v + 32u), q8k_d(hd), f32(q8k_sum(hd, 4u * g + h)), f32(q8k_sum(hd, 4u * g + 2u + h)));
}
