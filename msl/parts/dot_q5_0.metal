// Q5_0 in the matvecs: a part is four nibble bytes (xpart_halves), each
// with the matching four high bits of either half.
//!use decode_q5_0
//!use xpart_halves
//!use nibbles
inline float dot_part(device const uchar* W, uint rb, uint blk, uint part, thread const XPart& x) {
    uint o = rb + blk * 22;
    uint h = w16x2(W, o + 2);
    device const uchar* q = W + o + 6 + 4 * part;
    float4 lo = nib4(q, 0) + 16.0f * bit4(h, 4 * part) - 16.0f;
    float4 hi = nib4(q, 4) + 16.0f * bit4(h, 16 + 4 * part) - 16.0f;
    return h16(W, o) * (dot(lo, x.lo) + dot(hi, x.hi));
}
