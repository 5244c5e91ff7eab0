// The inner loop of the matvecs (matmul, matmul_id). A threadgroup of
// MV_THREADS threads computes MV_ROWS consecutive weight rows against one
// activation row. Its threads walk the rows' (block, part) pairs together,
// neighbouring threads taking neighbouring parts of a block (dot_TYPE), so
// a SIMD-group's loads fall on a few cache lines of W and X rather than one
// line per thread, and rows of few 256-value blocks still keep every
// thread busy. Each thread reads its part of X once for all the rows.
#define MV_ROWS 2
#define MV_THREADS 64

// accumulate adds thread li's share of rows row0 .. row0+MV_ROWS-1 of W
// (rows of K values, rb bytes each, row 0 at byte base) times the
// activations from element xo of X to acc; only `rows` of them exist, and
// those past it repeat the last (their sums are dropped).
inline void accumulate(thread float* acc, device const uchar* W, device const float* X, uint K, uint rb, uint base,
                       uint xo, uint row0, uint rows, uint li) {
    uint units = K / BLOCK * PARTS;
    for (uint u = li; u < units; u += MV_THREADS) {
        uint blk = u / PARTS;
        uint part = u % PARTS;
        XPart x = xpart(X, xo, blk, part);
        for (uint r = 0; r < MV_ROWS; r++) acc[r] += dot_part(W, base + (row0 + min(r, rows - 1)) * rb, blk, part, x);
    }
}
