// Chooses K experts per token from router logits: gating (0 softmax,
// 1 sigmoid, 2 softmax over the chosen), selection on the gated scores plus
// an optional bias, weights from the unbiased scores, then optional
// normalisation (the sum clamped to the smallest normal half, as llama.cpp
// does) and scaling. One workgroup per token. Its threads gate the experts
// side by side (route_gating), and each finds the rank of its experts
// among all of them (higher score first, lower index on ties): the experts
// ranked below K are the chosen, in that order. The K weights' last steps
// are one thread's. Words: routeParams.
//!use common
//!use workgroup_reduce
//!use route_gating
@group(0) @binding(2) var<storage, read> L: array<f32>;
@group(0) @binding(3) var<storage, read> Bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> Wt: array<f32>;

const WG = 64u;
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

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let t = group_index(wid, nwg);
    // Through pu_bound: lavapipe would compile a variant of this shader
    // for each expert count at every dispatch.
    let E = pu_bound(P_E, wid);
    let K = pu_bound(P_K, wid);
    let gating = pu(P_GATING);
    for (var e = li; e < E; e += WG) { pr[e] = L[at(P_LOGITS, e, t, 0u, 0u)]; }
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
        if (pu(P_HAS_BIAS) != 0u) { s += Bias[e]; }
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
    if (pu(P_NORM) != 0u) { normalise(&w, K); }
    let scale = pf(P_SCALE);
    for (var k = 0u; k < K; k++) {
        var x = w[k];
        if (scale != 0.0 && scale != 1.0) { x *= scale; }
        IDs[at(P_IDS, k, t, 0u, 0u)] = chosen[k];
        Wt[at(P_WEIGHTS, k, t, 0u, 0u)] = x;
    }
}
