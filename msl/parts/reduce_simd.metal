// Sums every thread's MV_ROWS partial sums (acc) over the matvec's
// threadgroup with SIMD-group reductions: one simd_sum a row, then one
// value a SIMD-group through threadgroup memory red (MV_ROWS ·
// MV_THREADS / 32 floats). Returns row r's total to thread r (li <
// MV_ROWS). Call from uniform control flow.
inline float reduce_rows(thread float* acc, threadgroup float* red, uint li, uint sg, uint sl) {
    const uint groups = MV_THREADS / 32;
    for (uint r = 0; r < MV_ROWS; r++) {
        float s = simd_sum(acc[r]);
        if (sl == 0) red[r * groups + sg] = s;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float t = 0.0f;
    if (li < MV_ROWS) {
        for (uint i = 0; i < groups; i++) t += red[li * groups + i];
    }
    return t;
}
