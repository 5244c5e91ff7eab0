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
    // Lane by lane (exact_q6_k says why).
    return Rec(vec4<f32>(h16(o), a.d, h16(o + 2u), a.d32), array<i32, 16>(q4_1_lane(o, a, 0u), q4_1_lane(o, a, 1u), q4_1_lane(o, a, 2u),
        q4_1_lane(o, a, 3u), q4_1_lane(o, a, 4u), q4_1_lane(o, a, 5u), q4_1_lane(o, a, 6u), q4_1_lane(o, a, 7u), act_sum32(a), 0, 0, 0, 0, 0, 0, 0));
}

// q4_1_lane is lane i of the block at byte o: values 4i .. 4i+3.
fn q4_1_lane(o: u32, a: Act, i: u32) -> i32 {
    var s = 0;
    for (var j = 4u * i; j < 4u * i + 4u; j++) { s += i32((b8(o + 4u + j % 16u) >> (4u * (j / 16u))) & 15u) * aq(a, j); }
    return s;
}
