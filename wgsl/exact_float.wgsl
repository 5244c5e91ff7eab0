// The float weights' exact products: ggml_vec_dot's four 16-lane
// accumulators over 64-value steps for one token, tinyBLAS's single
// 16-lane accumulator for a batch. wv(rb, k) is weight k of the row at
// byte rb, from exact_f32 or exact_f16.
//!use exact_orders
fn float_dot(rb: u32, xo: u32, K: u32, order: u32) -> f32 {
    // Lanes in vectors, not arrays indexed in loops (sum_lanes16v).
    if (order == ORDER_FLOAT_GEMM) {
        return sum_lanes16v(float_lanes(rb, xo, 0u, 16u, K), float_lanes(rb, xo, 4u, 16u, K), float_lanes(rb, xo, 8u, 16u, K),
            float_lanes(rb, xo, 12u, 16u, K));
    }
    let np = K & ~63u;
    let head = sum_lanes16v(float_reduced(rb, xo, 0u, np), float_reduced(rb, xo, 4u, np), float_reduced(rb, xo, 8u, np),
        float_reduced(rb, xo, 12u, np));
    return float_tail(head, rb, xo, np, K);
}

// float_lanes is lanes l .. l+3 of the accumulators that step by step
// through the row's first np values, a fused multiply-add a step.
fn float_lanes(rb: u32, xo: u32, l: u32, step: u32, np: u32) -> vec4<f32> {
    var v = vec4<f32>();
    for (var k = l; k < np; k += step) {
        let w = vec4<f32>(wv(rb, k), wv(rb, k + 1u), wv(rb, k + 2u), wv(rb, k + 3u));
        v = fma_exact4(w, vec4<f32>(X[xo + k], X[xo + k + 1u], X[xo + k + 2u], X[xo + k + 3u]), v);
    }
    return v;
}

// float_reduced is lanes l .. l+3 of the four 16-lane accumulators over
// 64-value steps, reduced as GGML_F32x16_REDUCE does: accumulators 0+2
// and 1+3, then those two.
fn float_reduced(rb: u32, xo: u32, l: u32, np: u32) -> vec4<f32> {
    return (float_lanes(rb, xo, l, 64u, np) + float_lanes(rb, xo, 32u + l, 64u, np))
        + (float_lanes(rb, xo, 16u + l, 64u, np) + float_lanes(rb, xo, 48u + l, 64u, np));
}
