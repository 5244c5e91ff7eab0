// Chooses K experts per token from router logits: gating (0 softmax,
// 1 sigmoid, 2 softmax over the chosen), selection on the gated scores plus
// an optional bias, weights from the unbiased scores, then optional
// normalisation (the sum clamped to the smallest normal half, as llama.cpp
// does) and scaling. One workgroup per token; its first thread works
// serially, E being small. Words: 0 E, 1 K, 2 gating, 3 has bias, 4 norm,
// 5 scale, Logits at 6, IDs at 11, Weights at 16, 21 zero (ZERO_WORD,
// for route_exact).
//!use common
//!use route_gating
@group(0) @binding(2) var<storage, read_write> L: array<f32>;
@group(0) @binding(3) var<storage, read_write> Bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> Wt: array<f32>;

const MAXE = 512u;
const MAXK = 32u;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = group_index(wid, nwg);
    let E = pu_bound(0u, wid);
    let K = pu_bound(1u, wid);
    let gating = pu(2u);
    var pr: array<f32, 512>;
    for (var e = 0u; e < E; e++) { pr[e] = L[at(6u, e, t, 0u, 0u)]; }
    if (gating == 0u) {
        softmax(&pr, E);
    } else if (gating == 1u) {
        for (var e = 0u; e < E; e++) { pr[e] = sigmoid(pr[e]); }
    }
    var ids: array<u32, 32>;
    var w: array<f32, 32>;
    // K passes, each taking the best expert ranked after the previous pick
    // (higher score first, lower index on ties).
    var pv = 3.4e38;
    var pi = 0xffffffffu;
    for (var k = 0u; k < K; k++) {
        var bv = -3.4e38;
        var bi = 0xffffffffu;
        for (var e = 0u; e < E; e++) {
            var s = pr[e];
            if (pu(3u) != 0u) { s += Bias[e]; }
            let after = s < pv || (s == pv && (pi == 0xffffffffu || e > pi));
            if (after && (bi == 0xffffffffu || s > bv)) { bv = s; bi = e; }
        }
        ids[k] = bi;
        w[k] = pr[bi];
        pv = bv;
        pi = bi;
    }
    if (gating == 2u) {
        // pr is free now: the chosen scores' softmax in place there.
        for (var k = 0u; k < K; k++) { pr[k] = w[k]; }
        softmax(&pr, K);
        for (var k = 0u; k < K; k++) { w[k] = pr[k]; }
    }
    if (pu(4u) != 0u) { normalise(&w, K); }
    let scale = pf(5u);
    for (var k = 0u; k < K; k++) {
        var x = w[k];
        if (scale != 0.0 && scale != 1.0) { x *= scale; }
        IDs[at(11u, k, t, 0u, 0u)] = ids[k];
        Wt[at(16u, k, t, 0u, 0u)] = x;
    }
}
