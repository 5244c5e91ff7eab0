// The router's choice for one token (route.wgsl's, and matmul_route's
// last workgroup's): K of E experts from the logits the kernel's
// route_logit(e, t) gives, the ids and weights written to IDs and Wt.
// Gating (0 softmax, 1 sigmoid, 2 softmax over the chosen), selection on
// the gated scores plus an optional bias (Bias), weights from the unbiased
// scores, then optional normalisation (the sum clamped to the smallest
// normal half, as llama.cpp does) and scaling. The workgroup's WG threads
// gate the experts side by side (route_gating), and each finds the rank of
// its experts among all of them (higher score first, lower index on ties):
// the experts ranked below K are the chosen, in that order. The K weights'
// last steps are one thread's. Words: the kernel's constants R_E, R_K,
// R_GATING, R_HAS_BIAS, R_NORM, R_SCALE, R_IDS and R_WEIGHTS name them
// (routeParams' fields).
//!use workgroup_reduce
//!use route_gating
const MAXE = 512u;
const MAXK = 32u;
var<workgroup> pr: array<f32, MAXE>;
var<workgroup> key: array<f32, MAXE>;
var<workgroup> chosen: array<u32, MAXK>;
var<workgroup> weight: array<f32, MAXK>;
var<workgroup> shared_sum: f32;

// scores_max is the largest of pr[0..n), to every thread. Call from
// uniform control flow.
fn scores_max(li: u32, n: u32) -> f32 {
    var m = -3.4e38;
    for (var e = li; e < n; e += WG) { m = max(m, pr[e]); }
    return reduce_max(li, m);
}

// beats is whether expert j ranks before expert e: a higher key, or an
// equal key and a lower index. A NaN key ranks after every other.
fn beats(j: u32, e: u32) -> bool {
    let kj = key[j];
    let ke = key[e];
    if (kj != kj) { return false; }
    return ke != ke || kj > ke || (kj == ke && j < e);
}

// route_token chooses token t's experts. Call from uniform control flow
// (the whole workgroup); wid bounds its loops (pu_bound).
fn route_token(li: u32, t: u32, wid: vec3<u32>) {
    // Through pu_bound: lavapipe would compile a variant of this shader
    // for each expert count at every dispatch.
    let E = pu_bound(R_E, wid);
    let K = pu_bound(R_K, wid);
    let gating = pu(R_GATING);
    for (var e = li; e < E; e += WG) { pr[e] = route_logit(e, t); }
    if (li < K) {
        chosen[li] = 0xffffffffu;
        weight[li] = 0.0;
    }
    workgroupBarrier();
    if (gating == 0u) {
        softmax(li, E);
    } else if (gating == 1u) {
        for (var e = li; e < E; e += WG) { pr[e] = sigmoid(pr[e]); }
    }
    for (var e = li; e < E; e += WG) {
        var s = pr[e];
        if (pu(R_HAS_BIAS) != 0u) { s += Bias[e]; }
        key[e] = s;
    }
    workgroupBarrier();
    for (var e = li; e < E; e += WG) {
        var rank = 0u;
        for (var j = 0u; j < E && rank < K; j++) {
            if (beats(j, e)) { rank++; }
        }
        if (rank < K && key[e] == key[e]) {
            chosen[rank] = e;
            weight[rank] = pr[e];
        }
    }
    workgroupBarrier();
    if (gating == 2u) {
        // pr is free now: the chosen scores' softmax in place there.
        if (li < K) { pr[li] = weight[li]; }
        workgroupBarrier();
        softmax(li, K);
        if (li < K) { weight[li] = pr[li]; }
        workgroupBarrier();
    }
    if (li != 0u) { return; }
    var w: array<f32, 32>;
    for (var k = 0u; k < K; k++) { w[k] = weight[k]; }
    if (pu(R_NORM) != 0u) { normalise(&w, K); }
    let scale = pf(R_SCALE);
    for (var k = 0u; k < K; k++) {
        var x = w[k];
        if (scale != 0.0 && scale != 1.0) { x *= scale; }
        IDs[at(R_IDS, k, t, 0u, 0u)] = chosen[k];
        Wt[at(R_WEIGHTS, k, t, 0u, 0u)] = x;
    }
}
