// Out[n, s, t] = Σ_k W[k, n, IDs[s, t]] · In[k, s', t], s' = s or 0 when In
// has one row per token: only the chosen experts' rows are read. A
// threadgroup computes MV_ROWS consecutive rows of one (s, t)
// (matvec.metal). Words: matmulIDParams. Experts past the device's
// largest buffer are split over dispatches: this one has experts R0 .. R1
// (exclusive), from byte Base of W, and writes only their rows; an expert
// id out of range gives zeros, written by the Last dispatch.
//!threads 64
//!threadgroup 0 512
//!dot
//!use matvec
//!use expert_rows
//!reduce
kernel void matmul_id(constant Params& P [[buffer(0)]], device const uchar* W [[buffer(2)]],
    device const float* X [[buffer(3)]], device const uint* IDs [[buffer(4)]], device float* O [[buffer(5)]],
    threadgroup float* red [[threadgroup(0)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]],
    uint sg [[simdgroup_index_in_threadgroup]], uint sl [[thread_index_in_simdgroup]]) {
    uint N = P.N;
    ExpertRows x = expert_rows(P, IDs, tg.x);
    bool mine = x.e >= P.R0 && x.e < P.R1;
    float acc[MV_ROWS] = {};
    if (mine) accumulate(acc, W, X, P.K, P.RowBytes, P.Base, x.xo, (x.e - P.R0) * N + x.n0, N - x.n0, li);
    float sum = reduce_rows(acc, red, li, sg, sl);
    bool writes = mine || (x.e >= P.Experts && P.Last != 0);
    if (writes && li < MV_ROWS && x.n0 + li < N) O[at(P.Out, x.n0 + li, x.s, x.t, 0)] = sum;
}
