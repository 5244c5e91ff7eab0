// Q5_K in the exact products: eight lanes of sub-block values scaled by
// their 6-bit scales, the minimums one integer a super-block in a float
// beside them (x). Rec: f the activation scale, the weight minimum's and
// scale's; s the lane sums, s[8] the minimums' sum.
//!use exact_record
//!use kscale
const EXACT_BLOCK = 256u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 176u;
    let a = act_block(xo, so, 256u, b);
    var r: Rec;
    r.f = vec4<f32>(a.d, h16(o + 2u), h16(o), 0.0);
    for (var j = 0u; j < 8u; j++) {
        let sm = vec2<i32>(kscale(o + 4u, j));
        r.s[8] += sm.y * (bsum16(a, 2u * j) + bsum16(a, 2u * j + 1u));
        for (var l = 0u; l < 32u; l++) {
            let q = ((b8(o + 48u + 32u * (j / 2u) + l) >> (4u * (j % 2u))) & 15u) | (((b8(o + 16u + l) >> j) & 1u) << 4u);
            r.s[l / 4u] += sm.x * i32(q) * aq(a, 32u * j + l);
        }
    }
    return r;
}

fn exact_fold(st: ptr<function, ExactState>, r: Rec, b: u32, order: u32) {
    (*st).x = fma_exact(-r.f.x * r.f.y, f32(r.s[8]), (*st).x);
    fold_lanes8(st, r.f.x * r.f.z, r.s);
}

fn exact_lanes(order: u32) -> bool { return true; }

fn exact_fold_lane(l: ptr<function, Lane>, x: LaneIn, b: u32, order: u32, j: u32) {
    if (j == 0u) { (*l).c = fma_exact(-x.f.x * x.f.y, f32(x.q.x), (*l).c); }
    fold_lane8(l, x.f.x * x.f.z, x.s);
}

fn exact_result(st: ExactState, nb: u32, order: u32) -> f32 { return sum_lanes8(st.acc) + st.x; }
