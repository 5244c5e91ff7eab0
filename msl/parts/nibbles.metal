// The low (sh 0) or high (sh 4) nibbles of four bytes, and one bit (at
// sh) of four bytes, as floats.
inline float4 nib4(device const uchar* q, uint sh) {
    return float4(float((q[0] >> sh) & 15), float((q[1] >> sh) & 15), float((q[2] >> sh) & 15), float((q[3] >> sh) & 15));
}
inline float4 bits4(device const uchar* q, uint sh) {
    return float4(float((q[0] >> sh) & 1), float((q[1] >> sh) & 1), float((q[2] >> sh) & 1), float((q[3] >> sh) & 1));
}
// bit4 is bits sh..sh+3 of h, one a lane.
inline float4 bit4(uint h, uint sh) {
    return float4(float((h >> sh) & 1), float((h >> (sh + 1)) & 1), float((h >> (sh + 2)) & 1), float((h >> (sh + 3)) & 1));
}
