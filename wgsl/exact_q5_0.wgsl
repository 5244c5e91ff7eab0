// Q5_0 in the exact products: eight lanes.
//!use exact_act
fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 {
    var acc = array<f32, 8>();
    for (var b = 0u; b < K / 32u; b++) {
        let o = rb + b * 22u;
        let a = act_block(xo, so, 32u, b);
        let qh = u32le(o + 2u);
        var s = array<i32, 8>();
        for (var j = 0u; j < 32u; j++) {
            let q = ((b8(o + 6u + j % 16u) >> (4u * (j / 16u))) & 15u) | (((qh >> j) & 1u) << 4u);
            s[j / 4u] += (i32(q) - 16) * aq(a, j);
        }
        lanes8(&acc, h16(o) * a.d, s);
    }
    return sum_lanes8(acc);
}
