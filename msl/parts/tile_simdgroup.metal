// The multiplication of a tiled product (matmul_tiled) with SIMD-group
// matrices (Apple7 on). K is walked 32 values at a time: the threads decode
// the weights' 64×32 slice into threadgroup memory as floats (dq of the
// weight type), rows of 32, and copy the activations' 32×64 slice beside
// it, rows of 64 tokens; then each of the eight SIMD-groups multiplies its
// band of 8 weight rows by all 64 tokens, 8×8 blocks at a time. The
// results leave through a SIMD-group's 8×8 of cs, one block at a time.

// tile_product computes rows n0..n0+63 of matrix b by tokens t0..t0+63
// and writes the ones that exist. ws and xs hold 64·32 floats each, cs
// 64 floats a SIMD-group. Call from uniform control flow.
inline void tile_product(constant Params& P, device const uchar* W, device const float* X, device float* O,
                         threadgroup float* ws, threadgroup float* xs, threadgroup float* cs,
                         uint n0, uint t0, uint b, uint li, uint sg, uint sl) {
    uint N = P.N;
    uint T = P.T;
    uint K = P.K;
    // Loads: four threads a row (and a column), eight values each. Rows and
    // tokens past the edge repeat the last one; their sums are dropped.
    uint lr = li / 4;
    uint lp = li % 4;
    uint rb = P.Base + (b * N + min(n0 + lr, N - 1)) * P.RowBytes;
    uint xo = at(P.In, 0, b, min(t0 + lr, T - 1), 0);
    simdgroup_float8x8 acc[8];
    for (uint j = 0; j < 8; j++) acc[j] = make_filled_simdgroup_matrix<float, 8, 8>(0.0f);
    for (uint k0 = 0; k0 < K; k0 += 32) {
        for (uint i = 0; i < 8; i++) {
            uint k = k0 + 8 * lp + i;
            ws[lr * 32 + 8 * lp + i] = k < K ? dq(W, rb, k) : 0.0f;
            xs[(8 * lp + i) * 64 + lr] = k < K ? X[xo + k] : 0.0f;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint kk = 0; kk < 32; kk += 8) {
            simdgroup_float8x8 w;
            simdgroup_load(w, ws + sg * 8 * 32 + kk, 32);
            for (uint j = 0; j < 8; j++) {
                simdgroup_float8x8 x;
                simdgroup_load(x, xs + kk * 64 + 8 * j, 64);
                simdgroup_multiply_accumulate(acc[j], w, x, acc[j]);
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    threadgroup float* c = cs + sg * 64;
    for (uint j = 0; j < 8; j++) {
        simdgroup_store(acc[j], c, 8);
        simdgroup_barrier(mem_flags::mem_threadgroup);
        for (uint e = sl; e < 64; e += 32) {
            uint n = n0 + 8 * sg + e / 8;
            uint t = t0 + 8 * j + e % 8;
            if (n < N && t < T) O[at(P.Out, n, b, t, 0)] = c[e];
        }
        simdgroup_barrier(mem_flags::mem_threadgroup);
    }
}
