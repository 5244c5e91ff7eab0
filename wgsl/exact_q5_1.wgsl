// Q5_1 in the exact products: as Q4_1, with the fifth bits.
//!use exact_act
fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 {
    var acc = array<f32, 8>();
    var summs = 0.0;
    for (var b = 0u; b < K / 32u; b++) {
        let o = rb + b * 24u;
        let a = act_block(xo, so, 32u, b);
        let qh = u32le(o + 4u);
        var s = array<i32, 8>();
        var total = 0;
        for (var j = 0u; j < 32u; j++) {
            let y = aq(a, j);
            total += y;
            let q = ((b8(o + 8u + j % 16u) >> (4u * (j / 16u))) & 15u) | (((qh >> j) & 1u) << 4u);
            s[j / 4u] += i32(q) * y;
        }
        summs = fma_exact(h16(o + 2u), half(a.d32 * f32(total)), summs);
        lanes8(&acc, h16(o) * a.d, s);
    }
    return sum_lanes8(acc) + summs;
}
