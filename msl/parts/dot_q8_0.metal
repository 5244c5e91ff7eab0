// Q8_0 in the matvecs: two parts of 16 values a block.
//!use decode_q8_0
//!use x4
constant uint PARTS = 2;
struct XPart { float4 a0, a1, a2, a3; };
inline XPart xpart(device const float* X, uint xo, uint blk, uint part) {
    uint i = xo + blk * 32 + part * 16;
    return XPart{x4(X, i), x4(X, i + 4), x4(X, i + 8), x4(X, i + 12)};
}
inline float4 s8x4(device const uchar* q) { return float4(s8(q[0]), s8(q[1]), s8(q[2]), s8(q[3])); }
inline float dot_part(device const uchar* W, uint rb, uint blk, uint part, thread const XPart& x) {
    uint o = rb + blk * 34;
    device const uchar* q = W + o + 2 + 16 * part;
    float s = dot(s8x4(q), x.a0) + dot(s8x4(q + 4), x.a1) + dot(s8x4(q + 8), x.a2) + dot(s8x4(q + 12), x.a3);
    return h16(W, o) * s;
}
