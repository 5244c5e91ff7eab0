// What the attention kernels share: the query head in threadgroup memory,
// rounded like the cache (HALF_CACHE: to f16, as llama.cpp rounds it
// against an F16 cache), and the scaled score against one cached key.
// Words: attentionHead.
#define ATT_MAXD 640
#define ATT_CHUNK 1024

// load_query copies query head h of token t into q, the threadgroup's n
// threads side by side. Call from uniform control flow: it ends with a
// barrier.
inline void load_query(constant Params& P, device const float* Q, threadgroup float* q, uint h, uint t, uint li, uint n) {
    for (uint d = li; d < P.DK; d += n) {
        float x = Q[at(P.Q, d, h, t, 0)];
        q[d] = HALF_CACHE ? float(half(x)) : x;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
}

// score is the scaled q·k of cache row j, whose key head starts at
// element kbase of row 0.
inline float score(constant Params& P, threadgroup float* q, device const uchar* K, uint j, uint kbase) {
    float s = 0.0f;
    uint row = j * P.KeyStride + kbase;
    for (uint d = 0; d < P.DK; d++) s += q[d] * cload(K, row + d);
    return s * P.Scale;
}
