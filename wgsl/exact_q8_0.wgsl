// Q8_0 in the exact products: ggml_vec_dot_q8_0_q8_0's eight lanes.
//!use exact_act
fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 {
    var acc = array<f32, 8>();
    for (var b = 0u; b < K / 32u; b++) {
        let o = rb + b * 34u;
        let a = act_block(xo, so, 32u, b);
        var s = array<i32, 8>();
        for (var j = 0u; j < 32u; j++) { s[j / 4u] += i8(o + 2u + j) * aq(a, j); }
        lanes8(&acc, h16(o) * a.d, s);
    }
    return sum_lanes8(acc);
}
