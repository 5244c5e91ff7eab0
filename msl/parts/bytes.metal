// Reads of packed weights (device const uchar* W at byte offsets): the
// f16 at an even offset, a word at any even offset (blocks of 18, 22, 34
// and 210 bytes are only 2-byte aligned), and a byte as a signed value.
inline float h16(device const uchar* W, uint o) { return float(*(device const half*)(W + o)); }
inline uint w16x2(device const uchar* W, uint o) {
    device const ushort* p = (device const ushort*)(W + o);
    return uint(p[0]) | (uint(p[1]) << 16);
}
inline float s8(uchar b) { return float(int(b ^ 0x80u) - 128); }
