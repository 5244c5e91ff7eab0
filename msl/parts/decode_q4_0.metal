// Q4_0: blocks of 32: f16 d, 16 bytes of nibbles (low: values 0..15,
// high: 16..31); x = d·(q - 8).
//!use bytes
constant uint BLOCK = 32;
inline float dq(device const uchar* W, uint rb, uint i) {
    uint o = rb + (i / 32) * 18;
    uint j = i % 32;
    uint q = (W[o + 2 + j % 16] >> ((j / 16) * 4)) & 15;
    return h16(W, o) * (float(q) - 8.0f);
}
