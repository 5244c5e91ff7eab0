// The fold and result of the types with a minimum a block (Q4_1, Q5_1):
// eight lanes, and the minimums times the activations' block sums (Q8_1's
// s, rounded to f16) in a float beside them. Rec as exact_q4_1 says.
fn exact_fold(st: ptr<function, ExactState>, r: Rec, b: u32, order: u32) {
    (*st).x = fma_exact(r.f.z, half(r.f.w * f32(r.s[8])), (*st).x);
    fold_lanes8(st, r.f.x * r.f.y, r.s);
}

fn exact_result(st: ExactState, nb: u32, order: u32) -> f32 { return sum_lanes8(st.acc) + st.x; }

fn exact_lanes(order: u32) -> bool { return true; }

fn exact_fold_lane(l: ptr<function, Lane>, x: LaneIn, b: u32, order: u32, j: u32) {
    if (j == 0u) { (*l).c = fma_exact(x.f.z, half(x.f.w * f32(x.q.x)), (*l).c); }
    fold_lane8(l, x.f.x * x.f.y, x.s);
}

// act_sum32 is the sum of a 32-value block's 8-bit activations.
fn act_sum32(a: Act) -> i32 {
    var v = vec4<i32>();
    for (var m = 0u; m < 8u; m++) { v += aq4(a, 4u * m); }
    return v.x + v.y + v.z + v.w;
}
