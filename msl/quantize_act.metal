// Rounds activations the way the CPU backend (and llama.cpp) feeds them to
// a product with quantized or half weights, so both backends multiply the
// same numbers: mode 0, 8-bit blocks of 32 with an f16 scale from the
// largest magnitude (Q8_0, Q8_1); mode 1, 8-bit blocks of 256 with an f32
// scale from the signed extreme (Q8_K); mode 2, f16; mode 3, unchanged (a
// packed copy). The result is written as floats, packed {K, rows}. One
// thread per value and 256 a threadgroup, so a block's extreme is a tree
// over threadgroup memory (K is whole blocks, so blocks never straddle
// threadgroups); every thread of a block then finds its scales. Words:
// quantizeActParams.
//!threads 256
//!threadgroup 0 1024
//!threadgroup 1 1024
//!threadgroup 2 1024
kernel void quantize_act(constant Params& P [[buffer(0)]], device const float* X [[buffer(2)]],
    device float* Y [[buffer(3)]],
    threadgroup float* mag [[threadgroup(0)]], threadgroup uint* first [[threadgroup(1)]],
    threadgroup float* val [[threadgroup(2)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint K = P.K;
    uint u = tg.x * 256 + li;
    bool live = u < K * P.Rows;
    uint row = u / K;
    float x = live ? X[at(P.In, u % K, row % P.D1, row / P.D1, 0)] : 0.0f;
    if (P.Mode >= 2) {
        if (live) Y[u] = P.Mode == 2 ? float(half(x)) : x;
        return;
    }
    // The block's largest magnitude and the first value holding it.
    uint bs = P.Block;
    uint j = li % bs;
    mag[li] = abs(x);
    first[li] = li;
    val[li] = x;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = bs / 2; s > 0; s >>= 1) {
        if (j < s && mag[li + s] > mag[li]) {
            mag[li] = mag[li + s];
            first[li] = first[li + s];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    float m = mag[li - j];
    float y;
    if (P.Mode == 0) {
        // Q8_0: d = m/127 stored as f16, values scaled by 127/m and
        // rounded half to even.
        float id = m != 0.0f ? 127.0f / m : 0.0f;
        y = float(half(m / 127.0f)) * rint(x * id);
    } else if (m == 0.0f) {
        y = 0.0f; // an all-zero Q8_K block is +0 throughout, as the CPU's
    } else {
        // Q8_K: iscale = -127/v for the first value v of largest magnitude,
        // the stored scale its f32 reciprocal.
        float iscale = -127.0f / val[first[li - j]];
        y = (1.0f / iscale) * min(127.0f, rint(iscale * x));
    }
    if (live) Y[u] = y;
}
