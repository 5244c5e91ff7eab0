// Byte-level reads of packed weights (array<u32> W): quantized blocks are
// not 4-byte aligned, so fields are assembled from the words holding them.
fn b8(o: u32) -> u32 { return (W[o >> 2u] >> ((o & 3u) * 8u)) & 0xffu; }
fn i8(o: u32) -> i32 { return (i32(b8(o)) << 24u) >> 24u; }
// h16 reads the f16 at even byte offset o.
fn h16(o: u32) -> f32 {
    let w = W[o >> 2u];
    return unpack2x16float(select(w & 0xffffu, w >> 16u, (o & 2u) != 0u)).x;
}
// u32le reads 4 bytes at any offset.
fn u32le(o: u32) -> u32 { return b8(o) | (b8(o + 1u) << 8u) | (b8(o + 2u) << 16u) | (b8(o + 3u) << 24u); }
// w32 reads the 4 bytes at any byte offset o from the one or two words
// holding them.
fn w32(o: u32) -> u32 {
    let a = o >> 2u;
    let s = (o & 3u) * 8u;
    if (s == 0u) { return W[a]; }
    return (W[a] >> s) | (W[a + 1u] << (32u - s));
}
