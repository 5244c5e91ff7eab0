// Q5_0 in the exact products: eight lanes. Rec: f.x the weight scale, f.y
// the activation's, s the lane sums.
//!use exact_record
const EXACT_BLOCK = 32u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 22u;
    let a = act_block(xo, so, 32u, b);
    let qh = u32le(o + 2u);
    var r: Rec;
    r.f = vec4<f32>(h16(o), a.d, 0.0, 0.0);
    for (var j = 0u; j < 32u; j++) {
        let q = ((b8(o + 6u + j % 16u) >> (4u * (j / 16u))) & 15u) | (((qh >> j) & 1u) << 4u);
        r.s[j / 4u] += (i32(q) - 16) * aq(a, j);
    }
    return r;
}

fn exact_fold(st: ptr<function, ExactState>, r: Rec, b: u32, order: u32) { fold_lanes8(st, r.f.x * r.f.y, r.s); }

fn exact_lanes(order: u32) -> bool { return true; }

fn exact_fold_lane(l: ptr<function, Lane>, x: LaneIn, b: u32, order: u32, j: u32) { fold_lane8(l, x.f.x * x.f.y, x.s); }

fn exact_result(st: ExactState, nb: u32, order: u32) -> f32 { return sum_lanes8(st.acc); }
