// The float weights' exact products: ggml_vec_dot's four 16-lane
// accumulators over 64-value steps for one token, tinyBLAS's single
// 16-lane accumulator for a batch. wv(rb, k) is weight k of the row at
// byte rb, from exact_f32 or exact_f16.
//!use exact_orders
fn float_dot(rb: u32, xo: u32, K: u32, order: u32) -> f32 {
    if (order == ORDER_FLOAT_GEMM) {
        var acc = array<f32, 16>();
        for (var k = 0u; k < K; k += 16u) {
            for (var l = 0u; l < 16u; l++) { acc[l] = fma_exact(wv(rb, k + l), X[xo + k + l], acc[l]); }
        }
        return sum_lanes16(acc);
    }
    let np = K & ~63u;
    var acc = array<f32, 64>();
    for (var k = 0u; k < np; k += 64u) {
        for (var l = 0u; l < 64u; l++) { acc[l] = fma_exact(wv(rb, k + l), X[xo + k + l], acc[l]); }
    }
    // GGML_F32x16_REDUCE: accumulators 0+2 and 1+3, then those two.
    var a = array<f32, 16>();
    for (var l = 0u; l < 16u; l++) { a[l] = (acc[l] + acc[32u + l]) + (acc[16u + l] + acc[48u + l]); }
    return float_tail(sum_lanes16(a), rb, xo, np, K);
}
