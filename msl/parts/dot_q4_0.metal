// Q4_0 in the matvecs: two parts a block, part p taking nibble bytes
// 8p..8p+7 (values 8p..8p+7 and 16+8p..16+8p+7).
//!use decode_q4_0
//!use x4
//!use nibbles
constant uint PARTS = 2;
struct XPart { float4 l0, l1, h0, h1; };
inline XPart xpart(device const float* X, uint xo, uint blk, uint part) {
    uint i = xo + blk * 32 + part * 8;
    return XPart{x4(X, i), x4(X, i + 4), x4(X, i + 16), x4(X, i + 20)};
}
inline float dot_part(device const uchar* W, uint rb, uint blk, uint part, thread const XPart& x) {
    uint o = rb + blk * 18;
    device const uchar* q = W + o + 2 + 8 * part;
    float lo = dot(nib4(q, 0) - 8.0f, x.l0) + dot(nib4(q + 4, 0) - 8.0f, x.l1);
    float hi = dot(nib4(q, 4) - 8.0f, x.h0) + dot(nib4(q + 4, 4) - 8.0f, x.h1);
    return h16(W, o) * (lo + hi);
}
