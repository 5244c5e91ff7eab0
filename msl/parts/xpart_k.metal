// Activations of a matvec part of Q4_K and Q5_K super-blocks: sixteen
// parts, four per group of 64 values; part p takes 8 values of the group's
// low sub-block and the 8 matching ones of its high sub-block (bytes
// 8s..8s+7, s = p % 4, of the group's nibbles). The sums of each half feed
// the minimums and are the same for every row.
//!use x4
constant uint PARTS = 16;
struct XPart { float4 l0, l1, h0, h1; float sl, sh; };
inline float hsum(float4 v) { return v.x + v.y + v.z + v.w; }
inline XPart xpart(device const float* X, uint xo, uint blk, uint part) {
    uint i = xo + blk * 256 + (part / 4) * 64 + (part % 4) * 8;
    float4 l0 = x4(X, i);
    float4 l1 = x4(X, i + 4);
    float4 h0 = x4(X, i + 32);
    float4 h1 = x4(X, i + 36);
    return XPart{l0, l1, h0, h1, hsum(l0 + l1), hsum(h0 + h1)};
}
