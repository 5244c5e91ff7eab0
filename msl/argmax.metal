// The index of the largest value of each row (ties: the lowest index). One
// threadgroup per row: each thread keeps the best of its elements, met in
// increasing order, then a tree keeps the better of two, ties to the
// lower index. Words: argmaxParams.
//!threads 256
//!threadgroup 0 1024
//!threadgroup 1 1024
kernel void argmax(constant Params& P [[buffer(0)]], device const float* X [[buffer(2)]],
    device uint* O [[buffer(3)]],
    threadgroup float* bv [[threadgroup(0)]], threadgroup uint* bi [[threadgroup(1)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint r = tg.x;
    float v = -3.4e38f;
    uint vi = 0xffffffffu;
    for (uint i = li; i < P.N; i += 256) {
        float x = X[at(P.In, i, r, 0, 0)];
        if (x > v || vi == 0xffffffffu) {
            v = x;
            vi = i;
        }
    }
    bv[li] = v;
    bi[li] = vi;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = 128; s > 0; s >>= 1) {
        if (li < s) {
            float ov = bv[li + s];
            uint oi = bi[li + s];
            if (oi != 0xffffffffu && (bi[li] == 0xffffffffu || ov > bv[li] || (ov == bv[li] && oi < bi[li]))) {
                bv[li] = ov;
                bi[li] = oi;
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (li == 0) O[at(P.Out, r, 0, 0, 0)] = bi[0];
}
