// Q8_0: blocks of 32: f16 d, int8 q[32]; x = d·q.
//!use bytes
constant uint BLOCK = 32;
inline float dq(device const uchar* W, uint rb, uint i) {
    uint o = rb + (i / 32) * 34;
    return h16(W, o) * s8(W[o + 2 + i % 32]);
}
