// Q5_1 in the matvecs: parts as in Q5_0 (xpart_halves).
//!use decode_q5_1
//!use xpart_halves
//!use nibbles
inline float dot_part(device const uchar* W, uint rb, uint blk, uint part, thread const XPart& x) {
    uint o = rb + blk * 24;
    uint h = w16x2(W, o + 4);
    device const uchar* q = W + o + 8 + 4 * part;
    float4 lo = nib4(q, 0) + 16.0f * bit4(h, 4 * part);
    float4 hi = nib4(q, 4) + 16.0f * bit4(h, 16 + 4 * part);
    return h16(W, o) * (dot(lo, x.lo) + dot(hi, x.hi)) + h16(W, o + 2) * x.sum;
}
