// The 6-bit scale and minimum of sub-block j of a Q4_K/Q5_K super-block
// whose 12 scale bytes are s.
inline float2 kscale(device const uchar* s, uint j) {
    if (j < 4) return float2(float(s[j] & 63), float(s[j + 4] & 63));
    uint d = (s[j + 4] & 15) | ((s[j - 4] >> 6) << 4);
    uint m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
    return float2(float(d), float(m));
}
