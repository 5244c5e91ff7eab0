// Chooses K experts per token from router logits: gating (0 softmax,
// 1 sigmoid, 2 softmax over the chosen), selection on the gated scores plus
// an optional bias, weights from the unbiased scores, then optional
// normalisation (the sum clamped to the smallest normal half, as llama.cpp
// does) and scaling. One threadgroup per token. Its threads gate the
// experts side by side, and each finds the rank of its experts among all
// of them (higher score first, lower index on ties): the experts ranked
// below K are the chosen, in that order. The K weights' last steps are
// one thread's. Words: routeParams.
//!threads 64
//!threadgroup 0 2048
//!threadgroup 1 2048
//!threadgroup 2 128
//!threadgroup 3 128
//!threadgroup 4 256
//!use expf
//!use group_reduce
#define ROUTE_MAXK 32

// softmax replaces pr[0..n) by its softmax; the sum is one thread's, in
// index order, shared through red. Call from uniform control flow.
inline void softmax(threadgroup float* pr, threadgroup float* red, uint li, uint n) {
    float m = -3.4e38f;
    for (uint e = li; e < n; e += 64) m = max(m, pr[e]);
    m = group_max(red, li, 64, m);
    for (uint e = li; e < n; e += 64) pr[e] = ember_expf(pr[e] - m);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (li == 0) {
        float sum = 0.0f;
        for (uint e = 0; e < n; e++) sum += pr[e];
        red[0] = sum;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float sum = red[0];
    for (uint e = li; e < n; e += 64) pr[e] /= sum;
    threadgroup_barrier(mem_flags::mem_threadgroup);
}

// beats is whether expert j ranks before expert e: a higher key, or an
// equal key and a lower index. A NaN key ranks after every other.
inline bool beats(threadgroup float* key, uint j, uint e) {
    float kj = key[j];
    float ke = key[e];
    if (kj != kj) return false;
    return ke != ke || kj > ke || (kj == ke && j < e);
}

kernel void route(constant Params& P [[buffer(0)]], device const float* L [[buffer(2)]],
    device const float* Bias [[buffer(3)]], device uint* IDs [[buffer(4)]], device float* Wt [[buffer(5)]],
    threadgroup float* pr [[threadgroup(0)]], threadgroup float* key [[threadgroup(1)]],
    threadgroup uint* chosen [[threadgroup(2)]], threadgroup float* weight [[threadgroup(3)]],
    threadgroup float* red [[threadgroup(4)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint t = tg.x;
    uint E = P.E;
    uint K = P.K;
    for (uint e = li; e < E; e += 64) pr[e] = L[at(P.Logits, e, t, 0, 0)];
    if (li < K) {
        chosen[li] = 0xffffffffu;
        weight[li] = 0.0f;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (P.Gating == 0) {
        softmax(pr, red, li, E);
    } else if (P.Gating == 1) {
        for (uint e = li; e < E; e += 64) pr[e] = 1.0f / (1.0f + ember_expf(-pr[e]));
    }
    for (uint e = li; e < E; e += 64) key[e] = P.HasBias != 0 ? pr[e] + Bias[e] : pr[e];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint e = li; e < E; e += 64) {
        uint rank = 0;
        for (uint j = 0; j < E && rank < K; j++) rank += beats(key, j, e) ? 1 : 0;
        if (rank < K && key[e] == key[e]) {
            chosen[rank] = e;
            weight[rank] = pr[e];
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (P.Gating == 2) {
        // pr is free now: the chosen scores' softmax in place there.
        if (li < K) pr[li] = weight[li];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        softmax(pr, red, li, K);
        if (li < K) weight[li] = pr[li];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (li != 0) return;
    float w[ROUTE_MAXK];
    for (uint k = 0; k < K; k++) w[k] = weight[k];
    if (P.Norm != 0) {
        float sum = 0.0f;
        for (uint k = 0; k < K; k++) sum += w[k];
        float inv = 1.0f / max(sum, 6.103515625e-5f);
        for (uint k = 0; k < K; k++) w[k] *= inv;
    }
    for (uint k = 0; k < K; k++) {
        float x = w[k];
        if (P.Scale != 0.0f && P.Scale != 1.0f) x *= P.Scale;
        IDs[at(P.IDs, k, t, 0, 0)] = chosen[k];
        Wt[at(P.Weights, k, t, 0, 0)] = x;
    }
}
