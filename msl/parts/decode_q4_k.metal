// Q4_K: super-blocks of 256 (144 bytes): f16 d, f16 dmin, 12 scale bytes,
// 128 bytes of nibbles in groups of 64 values (32 low, then 32 high);
// x = d·sc·q - dmin·m per sub-block of 32.
//!use bytes
//!use kscale
constant uint BLOCK = 256;
inline float dq(device const uchar* W, uint rb, uint i) {
    uint o = rb + (i / 256) * 144;
    uint j = i % 256;
    uint g = j / 64;
    uint l = j % 64;
    uint q = (W[o + 16 + g * 32 + l % 32] >> ((l / 32) * 4)) & 15;
    float2 sm = kscale(W + o + 4, 2 * g + l / 32);
    return h16(W, o) * sm.x * float(q) - h16(W, o + 2) * sm.y;
}
