// Q6_K in the exact products: eight lanes, lane i taking values 4i..4i+3
// of every 32, the -32 offset taken off lane i as 32·scale·(block sum)
// of sub-blocks 2i and 2i+1.
//!use exact_act
fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 {
    var acc = array<f32, 8>();
    for (var b = 0u; b < K / 256u; b++) {
        let o = rb + b * 210u;
        let a = act_block(xo, so, 256u, b);
        var s = array<i32, 8>();
        for (var v = 0u; v < 256u; v++) {
            let h = v / 128u;
            let c = (v % 128u) / 32u;
            let l = v % 32u;
            let lo = (b8(o + 64u * h + 32u * (c % 2u) + l) >> (4u * (c / 2u))) & 15u;
            let hi = (b8(o + 128u + 32u * h + l) >> (2u * c)) & 3u;
            s[l / 4u] += i8(o + 192u + v / 16u) * i32(lo | (hi << 4u)) * aq(a, v);
        }
        for (var i = 0u; i < 8u; i++) {
            s[i] -= 32 * (i8(o + 192u + 2u * i) * bsum16(a, 2u * i) + i8(o + 193u + 2u * i) * bsum16(a, 2u * i + 1u));
        }
        lanes8(&acc, a.d * h16(o + 208u), s);
    }
    return sum_lanes8(acc);
}
