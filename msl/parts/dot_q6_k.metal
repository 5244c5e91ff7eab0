// Q6_K in the matvecs: sixteen parts a super-block, eight per half of 128
// values; part p takes l = 4(p % 8) .. +3 of half p / 8, the four values
// at l, l+32, l+64 and l+96 that share low-nibble and high-bit bytes, each
// with its own scale.
//!use decode_q6_k
//!use x4
//!use nibbles
constant uint PARTS = 16;
struct XPart { float4 a, b, c, d; };
inline XPart xpart(device const float* X, uint xo, uint blk, uint part) {
    uint i = xo + blk * 256 + (part / 8) * 128 + (part % 8) * 4;
    return XPart{x4(X, i), x4(X, i + 32), x4(X, i + 64), x4(X, i + 96)};
}
inline float4 crumb4(device const uchar* h, uint sh) {
    return float4(float((h[0] >> sh) & 3), float((h[1] >> sh) & 3), float((h[2] >> sh) & 3), float((h[3] >> sh) & 3));
}
inline float dot_part(device const uchar* W, uint rb, uint blk, uint part, thread const XPart& x) {
    uint o = rb + blk * 210;
    uint n = part / 8;
    uint l = (part % 8) * 4;
    device const uchar* a = W + o + 64 * n + l;
    device const uchar* c = a + 32;
    device const uchar* h = W + o + 128 + 32 * n + l;
    device const uchar* sc = W + o + 192 + 8 * n + l / 16;
    float4 q1 = nib4(a, 0) + 16.0f * crumb4(h, 0) - 32.0f;
    float4 q2 = nib4(c, 0) + 16.0f * crumb4(h, 2) - 32.0f;
    float4 q3 = nib4(a, 4) + 16.0f * crumb4(h, 4) - 32.0f;
    float4 q4 = nib4(c, 4) + 16.0f * crumb4(h, 6) - 32.0f;
    return h16(W, o + 208) * (s8(sc[0]) * dot(q1, x.a) + s8(sc[2]) * dot(q2, x.b) + s8(sc[4]) * dot(q3, x.c) + s8(sc[6]) * dot(q4, x.d));
}
