// Q5_K in the matvecs: parts as in Q4_K (xpart_k), each with the matching
// 8 bytes of high bits (bit 2g of a byte for group g's low sub-block,
// 2g+1 for its high one).
//!use decode_q5_k
//!use xpart_k
//!use nibbles
inline float dot_part(device const uchar* W, uint rb, uint blk, uint part, thread const XPart& x) {
    uint o = rb + blk * 176;
    uint g = part / 4;
    uint s = part % 4;
    float d = h16(W, o);
    float dmin = h16(W, o + 2);
    float2 lo = kscale(W + o + 4, 2 * g);
    float2 hi = kscale(W + o + 4, 2 * g + 1);
    device const uchar* h = W + o + 16 + 8 * s;
    device const uchar* q = W + o + 48 + 32 * g + 8 * s;
    float sl = dot(nib4(q, 0) + 16.0f * bits4(h, 2 * g), x.l0) + dot(nib4(q + 4, 0) + 16.0f * bits4(h + 4, 2 * g), x.l1);
    float sh = dot(nib4(q, 4) + 16.0f * bits4(h, 2 * g + 1), x.h0) + dot(nib4(q + 4, 4) + 16.0f * bits4(h + 4, 2 * g + 1), x.h1);
    return d * (lo.x * sl + hi.x * sh) - dmin * (lo.y * x.sl + hi.y * x.sh);
}
