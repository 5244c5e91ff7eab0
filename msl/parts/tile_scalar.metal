// The multiplication of a tiled product (matmul_tiled) without SIMD-group
// matrices. K is walked 32 values at a time: the threads decode the
// weights' 64×32 slice into threadgroup memory as floats (dq of the weight
// type) and copy the activations' 32×64 slice beside it, both as [k][quad]
// of four rows (tokens), then each thread multiplies its 4×4 block of the
// tile out of threadgroup memory. A slice is summed on its own before it
// joins the total: long runs of f32 sums drift further from the matvec's
// (and the CPU's) than sums of sums.
#define QUADS 16

// tile_product computes rows n0..n0+63 of matrix b by tokens t0..t0+63
// and writes the ones that exist. ws and xs hold 64·32 floats each; cs is
// unused here. Call from uniform control flow.
inline void tile_product(constant Params& P, device const uchar* W, device const float* X, device float* O,
                         threadgroup float* ws, threadgroup float* xs, threadgroup float* cs,
                         uint n0, uint t0, uint b, uint li, uint sg, uint sl) {
    uint N = P.N;
    uint T = P.T;
    uint K = P.K;
    threadgroup float4* w4 = (threadgroup float4*)ws;
    threadgroup float4* x4 = (threadgroup float4*)xs;
    // Loads: four threads a row (and a column), eight values each. Rows and
    // tokens past the edge repeat the last one; their sums are dropped.
    uint lr = li / 4;
    uint lp = li % 4;
    uint rb = P.Base + (b * N + min(n0 + lr, N - 1)) * P.RowBytes;
    uint xo = at(P.In, 0, b, min(t0 + lr, T - 1), 0);
    // The thread's 4×4 block: a row quad and a column quad. The 32 threads
    // of a SIMD-group take 8 row quads by 4 column quads.
    uint mr = li % 8 + 8 * ((li / 32) % 2);
    uint mt = (li / 8) % 4 + 4 * (li / 64);
    float4 a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (uint k0 = 0; k0 < K; k0 += 32) {
        for (uint i = 0; i < 8; i++) {
            uint k = k0 + 8 * lp + i;
            uint slot = (8 * lp + i) * QUADS + lr / 4;
            w4[slot][lr % 4] = k < K ? dq(W, rb, k) : 0.0f;
            x4[slot][lr % 4] = k < K ? X[xo + k] : 0.0f;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        float4 p0 = 0.0f, p1 = 0.0f, p2 = 0.0f, p3 = 0.0f;
        for (uint kk = 0; kk < 32; kk++) {
            float4 w = w4[kk * QUADS + mr];
            float4 x = x4[kk * QUADS + mt];
            p0 += w * x.x;
            p1 += w * x.y;
            p2 += w * x.z;
            p3 += w * x.w;
        }
        a0 += p0;
        a1 += p1;
        a2 += p2;
        a3 += p3;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    float4 acc[4] = {a0, a1, a2, a3};
    for (uint j = 0; j < 4; j++) {
        uint t = t0 + 4 * mt + j;
        for (uint i = 0; i < 4 && t < T; i++) {
            uint n = n0 + 4 * mr + i;
            if (n < N) O[at(P.Out, n, b, t, 0)] = acc[j][i];
        }
    }
}
