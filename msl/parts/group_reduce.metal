// Sum and max of one value a thread over the n threads of a threadgroup
// (n a power of two), through threadgroup memory red of n floats, to
// every thread. Call from uniform control flow.
inline float group_sum(threadgroup float* red, uint li, uint n, float x) {
    red[li] = x;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = n / 2; s > 0; s >>= 1) {
        if (li < s) red[li] += red[li + s];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    float r = red[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    return r;
}

inline float group_max(threadgroup float* red, uint li, uint n, float x) {
    red[li] = x;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = n / 2; s > 0; s >>= 1) {
        if (li < s) red[li] = max(red[li], red[li + s]);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    float r = red[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    return r;
}
