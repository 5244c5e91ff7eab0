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
    // Lanes summed in vectors (exact_q4_k says why).
    var lo = vec4<i32>();
    var hi = vec4<i32>();
    var mins = 0;
    for (var j = 0u; j < 8u; j++) {
        let sm = vec2<i32>(kscale(o + 4u, j));
        mins += sm.y * (bsum16(a, 2u * j) + bsum16(a, 2u * j + 1u));
        lo += sm.x * vec4<i32>(q5_k_four(o, a, j, 0u), q5_k_four(o, a, j, 4u), q5_k_four(o, a, j, 8u), q5_k_four(o, a, j, 12u));
        hi += sm.x * vec4<i32>(q5_k_four(o, a, j, 16u), q5_k_four(o, a, j, 20u), q5_k_four(o, a, j, 24u), q5_k_four(o, a, j, 28u));
    }
    return Rec(vec4<f32>(a.d, h16(o + 2u), h16(o), 0.0), array<i32, 16>(lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w, mins, 0, 0, 0, 0, 0, 0, 0));
}

// q5_k_four is values l .. l+3 of sub-block j times their activations.
fn q5_k_four(o: u32, a: Act, j: u32, l0: u32) -> i32 {
    var s = 0;
    for (var l = l0; l < l0 + 4u; l++) {
        let q = ((b8(o + 48u + 32u * (j / 2u) + l) >> (4u * (j % 2u))) & 15u) | (((b8(o + 16u + l) >> j) & 1u) << 4u);
        s += i32(q) * aq(a, 32u * j + l);
    }
    return s;
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
