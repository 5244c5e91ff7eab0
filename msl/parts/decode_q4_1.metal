// Q4_1: blocks of 32: f16 d, f16 m, 16 bytes of nibbles; x = d·q + m.
//!use bytes
constant uint BLOCK = 32;
inline float dq(device const uchar* W, uint rb, uint i) {
    uint o = rb + (i / 32) * 20;
    uint j = i % 32;
    uint q = (W[o + 4 + j % 16] >> ((j / 16) * 4)) & 15;
    return h16(W, o) * float(q) + h16(W, o + 2);
}
