// F32 weights in the exact products (exact_float).
//!use exact_float
fn wv(rb: u32, k: u32) -> f32 { return bitcast<f32>(W[(rb >> 2u) + k]); }

// float_tail adds the values past the last 64-value step as
// ggml_vec_dot_f32's compiled loop does: 16 and then 8 at a time as
// rounded products added in turn, the last few with fused multiply-adds.
fn float_tail(head: f32, rb: u32, xo: u32, np: u32, K: u32) -> f32 {
    var sum = head;
    var i = np;
    for (; K - i >= 16u; i += 16u) {
        for (var k = i; k < i + 16u; k++) { sum += nofuse(wv(rb, k) * X[xo + k]); }
    }
    if (K - i >= 8u) {
        for (var k = i; k < i + 8u; k++) { sum += nofuse(wv(rb, k) * X[xo + k]); }
        i += 8u;
    }
    for (; i < K; i++) { sum = fma_exact(wv(rb, i), X[xo + i], sum); }
    return sum;
}

fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 { return float_dot(rb, xo, K, order); }
