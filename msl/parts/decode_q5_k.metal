// Q5_K: super-blocks of 256 (176 bytes): f16 d, f16 dmin, 12 scale bytes,
// 32 bytes of high bits, 128 bytes of nibbles laid out as in Q4_K.
//!use bytes
//!use kscale
constant uint BLOCK = 256;
inline float dq(device const uchar* W, uint rb, uint i) {
    uint o = rb + (i / 256) * 176;
    uint j = i % 256;
    uint g = j / 64;
    uint l = j % 64;
    uint lo = (W[o + 48 + g * 32 + l % 32] >> ((l / 32) * 4)) & 15;
    uint hi = (W[o + 16 + l % 32] >> (2 * g + l / 32)) & 1;
    float2 sm = kscale(W + o + 4, 2 * g + l / 32);
    return h16(W, o) * sm.x * float(lo | (hi << 4)) - h16(W, o + 2) * sm.y;
}
