// Out[n, b, t] = Σ_k W[k, n, b] · In[k, b, t] for weights in their file
// layout: a threadgroup computes MV_ROWS consecutive rows of one (b, t)
// (matvec.metal), its activations the rounded, packed copy of In. Words:
// matmulParams.
//!threads 64
//!threadgroup 0 512
//!dot
//!use matvec
//!reduce
kernel void matmul(constant Params& P [[buffer(0)]], device const uchar* W [[buffer(2)]],
    device const float* X [[buffer(3)]], device float* O [[buffer(4)]],
    threadgroup float* red [[threadgroup(0)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]],
    uint sg [[simdgroup_index_in_threadgroup]], uint sl [[thread_index_in_simdgroup]]) {
    uint N = P.N;
    uint groups = (N + MV_ROWS - 1) / MV_ROWS;
    uint n0 = (tg.x % groups) * MV_ROWS;
    uint b = (tg.x / groups) % P.B;
    uint t = tg.x / (groups * P.B);
    float acc[MV_ROWS] = {};
    accumulate(acc, W, X, P.K, P.RowBytes, P.Base, at(P.In, 0, b, t, 0), b * N + n0, N - n0, li);
    float s = reduce_rows(acc, red, li, sg, sl);
    if (li < MV_ROWS && n0 + li < N) O[at(P.Out, n0 + li, b, t, 0)] = s;
}
