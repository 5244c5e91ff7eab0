// The router's arithmetic (route.wgsl): softmax and sigmoid gating and
// the normalisation of the chosen weights.
//!use expf

// softmax replaces pr[0..n) by its softmax; the sum is one thread's, in
// index order. Call from uniform control flow.
fn softmax(li: u32, n: u32) {
    let mx = scores_max(li, n);
    for (var e = li; e < n; e += WG) { pr[e] = expf(pr[e] - mx); }
    workgroupBarrier();
    if (li == 0u) {
        var sum = 0.0;
        for (var e = 0u; e < n; e++) { sum += pr[e]; }
        shared_sum = sum;
    }
    let sum = workgroupUniformLoad(&shared_sum);
    for (var e = li; e < n; e += WG) { pr[e] /= sum; }
    workgroupBarrier();
}

fn sigmoid(x: f32) -> f32 { return 1.0 / (1.0 + expf(-x)); }

// normalise divides w[0..K) by its sum clamped to the smallest normal
// half, as llama.cpp does.
fn normalise(w: ptr<function, array<f32, 32>>, K: u32) {
    var sum = 0.0;
    for (var k = 0u; k < K; k++) { sum += (*w)[k]; }
    let inv = 1.0 / max(sum, 6.103515625e-5);
    for (var k = 0u; k < K; k++) { (*w)[k] *= inv; }
}
