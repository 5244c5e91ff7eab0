// Q4_K in the matvecs: sixteen parts a super-block (xpart_k).
//!use decode_q4_k
//!use xpart_k
//!use nibbles
inline float dot_part(device const uchar* W, uint rb, uint blk, uint part, thread const XPart& x) {
    uint o = rb + blk * 144;
    uint g = part / 4;
    float d = h16(W, o);
    float dmin = h16(W, o + 2);
    float2 lo = kscale(W + o + 4, 2 * g);
    float2 hi = kscale(W + o + 4, 2 * g + 1);
    device const uchar* q = W + o + 16 + 32 * g + 8 * (part % 4);
    float sl = dot(nib4(q, 0), x.l0) + dot(nib4(q + 4, 0), x.l1);
    float sh = dot(nib4(q, 4), x.h0) + dot(nib4(q + 4, 4), x.h1);
    return d * (lo.x * sl + hi.x * sh) - dmin * (lo.y * x.sl + hi.y * x.sh);
}
