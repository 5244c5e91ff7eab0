// Q4_0 in the exact products, in the three orders the CPU backend sums it
// in: interleaved (one fused multiply-add a block), repacked without
// interleaving (rounded block terms in four lanes) and unrepacked (eight
// lanes).
//!use exact_act
//!use exact_orders
fn q4_0_value(o: u32, j: u32) -> i32 { return i32((b8(o + 2u + j % 16u) >> (4u * (j / 16u))) & 15u) - 8; }

fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 {
    let nb = K / 32u;
    var acc = array<f32, 8>();
    var chain = 0.0;
    var t4 = Terms4(array<f32, 4>(), 0.0, nb & ~3u);
    for (var b = 0u; b < nb; b++) {
        let o = rb + b * 18u;
        let a = act_block(xo, so, 32u, b);
        var s = array<i32, 8>();
        for (var j = 0u; j < 32u; j++) { s[j / 4u] += q4_0_value(o, j) * aq(a, j); }
        if (order == ORDER_LANES8) {
            lanes8(&acc, h16(o) * a.d, s);
            continue;
        }
        let total = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
        if (order == ORDER_CHAIN) {
            chain = fma_exact(f32(total), h16(o) * a.d, chain);
        } else {
            terms4_add(&t4, b, nofuse((f32(total) * h16(o)) * a.d));
        }
    }
    if (order == ORDER_LANES8) { return sum_lanes8(acc); }
    if (order == ORDER_CHAIN) { return chain; }
    return terms4_result(t4, nb);
}
