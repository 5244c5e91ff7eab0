// Q4_1 in the matvecs: a part is four nibble bytes (xpart_halves).
//!use decode_q4_1
//!use xpart_halves
//!use nibbles
inline float dot_part(device const uchar* W, uint rb, uint blk, uint part, thread const XPart& x) {
    uint o = rb + blk * 20;
    device const uchar* q = W + o + 4 + 4 * part;
    return h16(W, o) * (dot(nib4(q, 0), x.lo) + dot(nib4(q, 4), x.hi)) + h16(W, o + 2) * x.sum;
}
