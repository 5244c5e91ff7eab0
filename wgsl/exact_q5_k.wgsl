// Q5_K in the exact products: eight lanes of sub-block values scaled by
// their 6-bit scales, the minimums one integer a super-block in a float
// beside them.
//!use exact_act
//!use kscale
fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 {
    var acc = array<f32, 8>();
    var summs = 0.0;
    for (var b = 0u; b < K / 256u; b++) {
        let o = rb + b * 176u;
        let a = act_block(xo, so, 256u, b);
        var s = array<i32, 8>();
        var mins = 0;
        for (var j = 0u; j < 8u; j++) {
            let sm = vec2<i32>(kscale(o + 4u, j));
            mins += sm.y * (bsum16(a, 2u * j) + bsum16(a, 2u * j + 1u));
            for (var l = 0u; l < 32u; l++) {
                let q = ((b8(o + 48u + 32u * (j / 2u) + l) >> (4u * (j % 2u))) & 15u) | (((b8(o + 16u + l) >> j) & 1u) << 4u);
                s[l / 4u] += sm.x * i32(q) * aq(a, 32u * j + l);
            }
        }
        summs = fma_exact(-a.d * h16(o + 2u), f32(mins), summs);
        lanes8(&acc, a.d * h16(o), s);
    }
    return sum_lanes8(acc) + summs;
}
