// Q5_1 in the exact products: as Q4_1 (exact_minimums), with the fifth
// bits.
//!use exact_record
//!use exact_minimums
const EXACT_BLOCK = 32u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 24u;
    let a = act_block(xo, so, 32u, b);
    let qh = u32le(o + 4u);
    // Lane by lane (exact_q6_k says why).
    return Rec(vec4<f32>(h16(o), a.d, h16(o + 2u), a.d32), array<i32, 16>(q5_1_lane(o, a, qh, 0u), q5_1_lane(o, a, qh, 1u), q5_1_lane(o, a, qh, 2u),
        q5_1_lane(o, a, qh, 3u), q5_1_lane(o, a, qh, 4u), q5_1_lane(o, a, qh, 5u), q5_1_lane(o, a, qh, 6u), q5_1_lane(o, a, qh, 7u), act_sum32(a), 0, 0, 0, 0, 0, 0, 0));
}

// q5_1_lane is lane i of the block at byte o (high bits qh): values
// 4i .. 4i+3.
fn q5_1_lane(o: u32, a: Act, qh: u32, i: u32) -> i32 {
    var s = 0;
    for (var j = 4u * i; j < 4u * i + 4u; j++) {
        let q = ((b8(o + 8u + j % 16u) >> (4u * (j / 16u))) & 15u) | (((qh >> j) & 1u) << 4u);
        s += i32(q) * aq(a, j);
    }
    return s;
}
