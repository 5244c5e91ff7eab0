// Out[n, b, t] = Σ_k W[k, n, b] · In[k, b, t] for the many tokens of a
// prefill: a threadgroup of 256 threads computes a tile of 64 rows by 64
// tokens (tile_simdgroup with SIMD-group matrices, else tile_scalar), so
// each weight is read and decoded once per 64 tokens where the matvec
// (matmul.metal) reads it once per token. Words: matmulParams.
//!threads 256
//!threadgroup 0 8192
//!threadgroup 1 8192
//!threadgroup 2 2048
//!decode
//!tilemul
kernel void matmul_tiled(constant Params& P [[buffer(0)]], device const uchar* W [[buffer(2)]],
    device const float* X [[buffer(3)]], device float* O [[buffer(4)]],
    threadgroup float* ws [[threadgroup(0)]], threadgroup float* xs [[threadgroup(1)]],
    threadgroup float* cs [[threadgroup(2)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]],
    uint sg [[simdgroup_index_in_threadgroup]], uint sl [[thread_index_in_simdgroup]]) {
    uint tiles = (P.N + 63) / 64;
    uint ttiles = (P.T + 63) / 64;
    uint n0 = (tg.x % tiles) * 64;
    uint t0 = (tg.x / tiles % ttiles) * 64;
    uint b = tg.x / (tiles * ttiles);
    tile_product(P, W, X, O, ws, xs, cs, n0, t0, b, li, sg, sl);
}
