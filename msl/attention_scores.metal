// The scores pass of decode attention (flash-decoding's split):
// threadgroup (h, t, c) forms the scaled scores q·k of query head h, token
// t against cache rows c·16 .. c·16+15 (those up to its position), four
// threads to a row, and writes them to SC, whose rows of Chunks·16 scores
// attention_values turns into weights. Splitting the rows rather than
// giving a head one threadgroup keeps the GPU busy at long contexts.
// Words: attentionScoresParams.
//!threads 64
//!threadgroup 0 2560
//!threadgroup 1 256
//!decode
//!use attend
#define SCORE_ROWS 16
#define SCORE_LANES 4

kernel void attention_scores(constant Params& P [[buffer(0)]], constant Step& S [[buffer(1)]],
    device const float* Q [[buffer(2)]], device const uchar* K [[buffer(3)]], device float* SC [[buffer(4)]],
    threadgroup float* q [[threadgroup(0)]], threadgroup float* part [[threadgroup(1)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint H = P.H;
    uint c = tg.x % P.Chunks;
    uint ht = tg.x / P.Chunks;
    uint h = ht % H;
    uint t = ht / H;
    uint n = tok_pos(S, t) + 1;
    // The whole threadgroup leaves together: its barriers stay uniform.
    if (c * SCORE_ROWS >= n) return;
    uint kbase = tok_base(S, t) * P.KeyStride + (h / (H / P.HKV)) * P.DK;
    load_query(P, Q, q, h, t, li, 64);
    uint lane = li % SCORE_LANES;
    for (uint r = li / SCORE_LANES; r < SCORE_ROWS; r += 64 / SCORE_LANES) {
        uint j = c * SCORE_ROWS + r;
        float s = 0.0f;
        if (j < n) {
            uint row = j * P.KeyStride + kbase;
            for (uint d = lane; d < P.DK; d += SCORE_LANES) s += q[d] * cload(K, row + d);
        }
        part[r * SCORE_LANES + lane] = s;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint j = c * SCORE_ROWS + li;
    if (li < SCORE_ROWS && j < n) {
        float s = 0.0f;
        for (uint l = 0; l < SCORE_LANES; l++) s += part[li * SCORE_LANES + l];
        SC[ht * P.Chunks * SCORE_ROWS + j] = s * P.Scale;
    }
}
