// The values pass of decode attention: after attention_scores wrote the
// scores of every cache row, threadgroup (h, t, slice) takes the softmax
// of head h, token t's scores and sums 32 value dimensions over the rows.
// The weights are formed as attention.metal forms them (normalised, then
// rounded to f16 against an F16 cache), which is why the softmax waits for
// every score rather than merging per-chunk partial sums: those would
// round other weights than llama.cpp does. Sixteen threads share a
// slice's rows, two value dimensions each, so long contexts are split
// across threads. Words: attentionValuesParams.
//!threads 256
//!threadgroup 0 1024
//!threadgroup 1 4096
//!threadgroup 2 2048
//!use expf
//!use group_reduce
//!decode
#define VALUE_SLICE 32
#define VALUE_COLS 16
#define VALUE_CHUNK 1024
#define SCORE_ROWS 16 // attention_scores.metal's rows a chunk

kernel void attention_values(constant Params& P [[buffer(0)]], constant Step& S [[buffer(1)]],
    device const float* SC [[buffer(2)]], device const uchar* V [[buffer(3)]], device float* O [[buffer(4)]],
    threadgroup float* red [[threadgroup(0)]], threadgroup float* w [[threadgroup(1)]],
    threadgroup float2* vpart [[threadgroup(2)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint H = P.H;
    uint DV = P.DV;
    uint slices = (DV + VALUE_SLICE - 1) / VALUE_SLICE;
    uint sl = tg.x % slices;
    uint ht = tg.x / slices;
    uint h = ht % H;
    uint t = ht / H;
    uint n = tok_pos(S, t) + 1;
    uint row = ht * P.Chunks * SCORE_ROWS;
    float m = -3.4e38f;
    for (uint j = li; j < n; j += 256) m = max(m, SC[row + j]);
    m = group_max(red, li, 256, m);
    float l = 0.0f;
    for (uint j = li; j < n; j += 256) l += ember_expf(SC[row + j] - m);
    float inv = 1.0f / group_sum(red, li, 256, l);
    uint vbase = tok_base(S, t) * P.ValueStride + (h / (H / P.HKV)) * P.ValueHead;
    uint col = li % VALUE_COLS;
    uint pl = li / VALUE_COLS;
    uint d = sl * VALUE_SLICE + 2 * col;
    float2 a = 0.0f;
    for (uint c0 = 0; c0 < n; c0 += VALUE_CHUNK) {
        uint cn = min(uint(VALUE_CHUNK), n - c0);
        for (uint j = li; j < cn; j += 256) {
            float p = ember_expf(SC[row + c0 + j] - m) * inv;
            w[j] = HALF_CACHE ? float(half(p)) : p;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (d < DV) {
            // d + 1 may be past DV: that sum is dropped.
            for (uint j = pl; j < cn; j += 256 / VALUE_COLS) {
                uint v = (c0 + j) * P.ValueStride + vbase + d;
                a += w[j] * float2(cload(V, v), d + 1 < DV ? cload(V, v + 1) : 0.0f);
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    vpart[li] = a;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (pl == 0 && d < DV) {
        float2 s = 0.0f;
        for (uint p = 0; p < 256 / VALUE_COLS; p++) s += vpart[p * VALUE_COLS + col];
        O[at(P.Out, d, h, t, 0)] = s.x;
        if (d + 1 < DV) O[at(P.Out, d + 1, h, t, 0)] = s.y;
    }
}
