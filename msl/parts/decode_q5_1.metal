// Q5_1: blocks of 32: f16 d, f16 m, 32 high bits, 16 bytes of nibbles;
// x = d·q + m.
//!use bytes
constant uint BLOCK = 32;
inline float dq(device const uchar* W, uint rb, uint i) {
    uint o = rb + (i / 32) * 24;
    uint j = i % 32;
    uint lo = (W[o + 8 + j % 16] >> ((j / 16) * 4)) & 15;
    uint hi = (w16x2(W, o + 4) >> j) & 1;
    return h16(W, o) * float(lo | (hi << 4)) + h16(W, o + 2);
}
