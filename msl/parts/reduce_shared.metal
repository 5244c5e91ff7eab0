// Sums every thread's MV_ROWS partial sums (acc) over the matvec's
// threadgroup through threadgroup memory red (MV_ROWS · MV_THREADS floats)
// alone, for devices without SIMD-group reductions: a tree of
// log2(MV_THREADS) rounds, all rows at once. Returns row r's total to
// thread r (li < MV_ROWS). Call from uniform control flow.
inline float reduce_rows(thread float* acc, threadgroup float* red, uint li, uint sg, uint sl) {
    for (uint r = 0; r < MV_ROWS; r++) red[r * MV_THREADS + li] = acc[r];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint w = MV_THREADS / 2; w > 0; w >>= 1) {
        if (li < w) {
            for (uint r = 0; r < MV_ROWS; r++) red[r * MV_THREADS + li] += red[r * MV_THREADS + li + w];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    return li < MV_ROWS ? red[li * MV_THREADS] : 0.0f;
}
