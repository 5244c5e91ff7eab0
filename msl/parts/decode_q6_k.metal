// Q6_K: super-blocks of 256 (210 bytes): 128 bytes of low nibbles, 64 of
// high 2-bit pairs, 16 int8 scales, f16 d; x = d·sc·(q - 32).
//!use bytes
constant uint BLOCK = 256;
inline float dq(device const uchar* W, uint rb, uint i) {
    uint o = rb + (i / 256) * 210;
    uint j = i % 256;
    uint n = j / 128;
    uint l = j % 128;
    uint quad = l / 32;
    uint l32 = l % 32;
    uint ql = W[o + n * 64 + l32 + (quad & 1) * 32] >> ((quad / 2) * 4);
    uint qh = W[o + 128 + n * 32 + l32] >> (quad * 2);
    int q = int((ql & 15) | ((qh & 3) << 4)) - 32;
    return h16(W, o + 208) * s8(W[o + 192 + n * 8 + l32 / 16 + quad * 2]) * float(q);
}
