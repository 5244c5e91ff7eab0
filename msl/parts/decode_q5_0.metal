// Q5_0: blocks of 32: f16 d, 32 high bits, 16 bytes of nibbles;
// x = d·(q - 16).
//!use bytes
constant uint BLOCK = 32;
inline float dq(device const uchar* W, uint rb, uint i) {
    uint o = rb + (i / 32) * 22;
    uint j = i % 32;
    uint lo = (W[o + 6 + j % 16] >> ((j / 16) * 4)) & 15;
    uint hi = (w16x2(W, o + 2) >> j) & 1;
    return h16(W, o) * (float(lo | (hi << 4)) - 16.0f);
}
