// Q4_1 in the exact products: eight lanes, and the minimums times the
// activations' block sums (Q8_1's s) in a float beside them (x). Rec: f
// the weight scale, the activation's, the weight minimum and the
// activation's f32 scale; s the lane sums, s[8] the activations' sum.
//!use exact_record
//!use exact_minimums
const EXACT_BLOCK = 32u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 20u;
    let a = act_block(xo, so, 32u, b);
    var r: Rec;
    r.f = vec4<f32>(h16(o), a.d, h16(o + 2u), a.d32);
    for (var j = 0u; j < 32u; j++) {
        let y = aq(a, j);
        r.s[8] += y;
        r.s[j / 4u] += i32((b8(o + 4u + j % 16u) >> (4u * (j / 16u))) & 15u) * y;
    }
    return r;
}
