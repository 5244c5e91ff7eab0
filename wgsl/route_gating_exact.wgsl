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

// pr4 is pr[i .. i+3].
fn pr4(i: u32) -> vec4<f32> { return vec4<f32>(pr[i], pr[i + 1u], pr[i + 2u], pr[i + 3u]); }

// softmax replaces pr[0..n) by its softmax. The exps are the threads';
// the float64 sum of the chunks (each chunk's lanes added as ggml adds
// them) and of the tail is one thread's, in the CPU's order. Call from
// uniform control flow.
fn softmax(li: u32, n: u32) {
    let mx = scores_max(li, n);
    let n16 = n & ~15u;
    for (var e = li; e < n; e += WG) {
        if (e < n16) { pr[e] = exp_ggml(pr[e] - mx); } else { pr[e] = exp_libm(pr[e] - mx); }
    }
    workgroupBarrier();
    if (li == 0u) {
        var sum = F64(U64(0u, 0u), 0, false);
        for (var i = 0u; i < n16; i += 16u) {
            sum = f64_add(sum, f64_from(sum_lanes16v(pr4(i), pr4(i + 4u), pr4(i + 8u), pr4(i + 12u))));
        }
        for (var e = n16; e < n; e++) { sum = f64_add(sum, f64_from(pr[e])); }
        shared_sum = f64_recip_f32(sum);
    }
    let inv = workgroupUniformLoad(&shared_sum);
    for (var e = li; e < n; e += WG) { pr[e] *= inv; }
    workgroupBarrier();
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
