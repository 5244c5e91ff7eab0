// Q8_0 in the exact products: ggml_vec_dot_q8_0_q8_0's eight lanes.
// Rec: f.x the weight scale, f.y the activation's, s the lane sums.
//!use exact_record
const EXACT_BLOCK = 32u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 34u;
    let a = act_block(xo, so, 32u, b);
    // The sums built whole, as exact_q4_0 builds them.
    return Rec(vec4<f32>(h16(o), a.d, 0.0, 0.0), array<i32, 16>(q8_0_lane(o, a, 0u), q8_0_lane(o, a, 1u), q8_0_lane(o, a, 2u), q8_0_lane(o, a, 3u),
        q8_0_lane(o, a, 4u), q8_0_lane(o, a, 5u), q8_0_lane(o, a, 6u), q8_0_lane(o, a, 7u), 0, 0, 0, 0, 0, 0, 0, 0));
}

// q8_0_lane is lane m of the block at byte o: values 4m .. 4m+3.
fn q8_0_lane(o: u32, a: Act, m: u32) -> i32 { return dot(s8x4(w32(o + 2u + 4u * m)), aq4(a, 4u * m)); }

fn exact_fold(st: ptr<function, ExactState>, r: Rec, b: u32, order: u32) { fold_lanes8(st, r.f.x * r.f.y, r.s); }

fn exact_lanes(order: u32) -> bool { return true; }

fn exact_fold_lane(l: ptr<function, Lane>, x: LaneIn, b: u32, order: u32, j: u32) { fold_lane8(l, x.f.x * x.f.y, x.s); }

fn exact_result(st: ExactState, nb: u32, order: u32) -> f32 { return sum_lanes8(st.acc); }
