// Causal attention of query head h, token t over the cache rows of its
// sequence up to its own (rows 0..pos+t, or tok_base .. tok_base+tok_pos
// where the tokens are placed one by one), one
// threadgroup per (h, t): a pass for the largest score, one for the
// softmax sum, and one that forms the normalised weights (rounded to f16
// against an F16 cache, as llama.cpp does) a chunk at a time in
// threadgroup memory and accumulates the values. The query, rounded like
// the cache, sits in threadgroup memory. Words: attentionKernelParams.
//!threads 64
//!threadgroup 0 2560
//!threadgroup 1 4096
//!threadgroup 2 256
//!use expf
//!use group_reduce
//!decode
//!use attend
#define ATT_PER 10 // ATT_MAXD / 64 output values a thread

kernel void attention(constant Params& P [[buffer(0)]], constant Step& S [[buffer(1)]],
    device const float* Q [[buffer(2)]], device const uchar* K [[buffer(3)]],
    device const uchar* V [[buffer(4)]], device float* O [[buffer(5)]],
    threadgroup float* q [[threadgroup(0)]], threadgroup float* w [[threadgroup(1)]],
    threadgroup float* red [[threadgroup(2)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint H = P.H;
    uint h = tg.x % H;
    uint t = tg.x / H;
    uint kvh = h / (H / P.HKV);
    uint n = tok_pos(S, t) + 1;
    load_query(P, Q, q, h, t, li, 64);
    uint kbase = tok_base(S, t) * P.KeyStride + kvh * P.DK;
    float m = -3.4e38f;
    for (uint j = li; j < n; j += 64) m = max(m, score(P, q, K, j, kbase));
    m = group_max(red, li, 64, m);
    float l = 0.0f;
    for (uint j = li; j < n; j += 64) l += ember_expf(score(P, q, K, j, kbase) - m);
    float inv = 1.0f / group_sum(red, li, 64, l);
    float acc[ATT_PER] = {};
    uint vbase = tok_base(S, t) * P.ValueStride + kvh * P.ValueHead;
    for (uint c0 = 0; c0 < n; c0 += ATT_CHUNK) {
        uint cn = min(uint(ATT_CHUNK), n - c0);
        for (uint j = li; j < cn; j += 64) {
            float p = ember_expf(score(P, q, K, c0 + j, kbase) - m) * inv;
            w[j] = HALF_CACHE ? float(half(p)) : p;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint r = 0; r < ATT_PER; r++) {
            uint d = li + 64 * r;
            if (d < P.DV) {
                float s = acc[r];
                for (uint j = 0; j < cn; j++) s += w[j] * cload(V, (c0 + j) * P.ValueStride + vbase + d);
                acc[r] = s;
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    for (uint r = 0; r < ATT_PER; r++) {
        uint d = li + 64 * r;
        if (d < P.DV) O[at(P.Out, d, h, t, 0)] = acc[r];
    }
}
