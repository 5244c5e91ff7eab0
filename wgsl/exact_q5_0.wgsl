// Q5_0 in the exact products: eight lanes. Rec: f.x the weight scale, f.y
// the activation's, s the lane sums.
//!use exact_record
const EXACT_BLOCK = 32u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 22u;
    let a = act_block(xo, so, 32u, b);
    let qh = u32le(o + 2u);
    // Lane by lane (exact_q6_k says why).
    return Rec(vec4<f32>(h16(o), a.d, 0.0, 0.0), array<i32, 16>(q5_0_lane(o, a, qh, 0u), q5_0_lane(o, a, qh, 1u), q5_0_lane(o, a, qh, 2u),
        q5_0_lane(o, a, qh, 3u), q5_0_lane(o, a, qh, 4u), q5_0_lane(o, a, qh, 5u), q5_0_lane(o, a, qh, 6u), q5_0_lane(o, a, qh, 7u), 0, 0, 0, 0, 0, 0, 0, 0));
}

// q5_0_lane is lane i of the block at byte o (high bits qh): values
// 4i .. 4i+3.
fn q5_0_lane(o: u32, a: Act, qh: u32, i: u32) -> i32 {
    var s = 0;
    for (var j = 4u * i; j < 4u * i + 4u; j++) {
        let q = ((b8(o + 6u + j % 16u) >> (4u * (j / 16u))) & 15u) | (((qh >> j) & 1u) << 4u);
        s += (i32(q) - 16) * aq(a, j);
    }
    return s;
}

fn exact_fold(st: ptr<function, ExactState>, r: Rec, b: u32, order: u32) { fold_lanes8(st, r.f.x * r.f.y, r.s); }

fn exact_lanes(order: u32) -> bool { return true; }

fn exact_fold_lane(l: ptr<function, Lane>, x: LaneIn, b: u32, order: u32, j: u32) { fold_lane8(l, x.f.x * x.f.y, x.s); }

fn exact_result(st: ExactState, nb: u32, order: u32) -> f32 { return sum_lanes8(st.acc); }
