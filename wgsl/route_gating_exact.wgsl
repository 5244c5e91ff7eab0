// The router's arithmetic as the CPU backend computes it (gpu/cpu's
// lowerRoute and softmax), for route_exact: softmax as ggml's soft_max
// (16-value chunks through exp_ggml summed by lanes, the rest through
// exp_libm, into a float64 sum whose reciprocal, rounded to float32,
// scales them), sigmoid with exp_libm, and the normalisation's sum in
// float64; divisions correctly rounded.
//!use exact_math
//!use exact_orders
//!use exp_libm
const ZERO_WORD = 21u;

fn softmax(p: ptr<function, array<f32, 512>>, n: u32) {
    var mx = -3.4e38;
    for (var e = 0u; e < n; e++) { mx = max(mx, (*p)[e]); }
    var sum = F64(U64(0u, 0u), 0, false);
    let n16 = n & ~15u;
    for (var i = 0u; i < n16; i += 16u) {
        var chunk: array<f32, 16>;
        for (var l = 0u; l < 16u; l++) {
            chunk[l] = exp_ggml((*p)[i + l] - mx);
            (*p)[i + l] = chunk[l];
        }
        sum = f64_add(sum, f64_from(sum_lanes16(chunk)));
    }
    for (var e = n16; e < n; e++) {
        (*p)[e] = exp_libm((*p)[e] - mx);
        sum = f64_add(sum, f64_from((*p)[e]));
    }
    let inv = f64_recip_f32(sum);
    for (var e = 0u; e < n; e++) { (*p)[e] *= inv; }
}

fn sigmoid(x: f32) -> f32 {
    let d = 1.0 + exp_libm(-x);
    if (bitcast<u32>(d) == 0x7f800000u) { return 0.0; }
    return div_exact(1.0, d);
}

fn normalise(w: ptr<function, array<f32, 32>>, K: u32) {
    var sum = F64(U64(0u, 0u), 0, false);
    for (var k = 0u; k < K; k++) { sum = f64_add(sum, f64_from((*w)[k])); }
    let d = max(f64_f32(sum), 6.103515625e-5);
    for (var k = 0u; k < K; k++) { (*w)[k] = div_exact((*w)[k], d); }
}
