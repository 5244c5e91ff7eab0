// Byte-level reads of packed weights (array<u32> W): quantized blocks are
// not 4-byte aligned, so fields are assembled from the words holding them.
fn b8(o: u32) -> u32 { return (W[o >> 2u] >> ((o & 3u) * 8u)) & 0xffu; }
fn i8(o: u32) -> i32 { return (i32(b8(o)) << 24u) >> 24u; }
// h16 reads the f16 at even byte offset o.
fn h16(o: u32) -> f32 { return half_in(W[o >> 2u], o); }
// half_in is the f16 at even byte offset o from w, the word holding it.
fn half_in(w: u32, o: u32) -> f32 { return unpack2x16float(select(w & 0xffffu, w >> 16u, (o & 2u) != 0u)).x; }
// u32le reads 4 bytes at any offset.
fn u32le(o: u32) -> u32 { return b8(o) | (b8(o + 1u) << 8u) | (b8(o + 2u) << 16u) | (b8(o + 3u) << 24u); }
// w32 reads the 4 bytes at any byte offset o from the one or two words
// holding them. Without a branch: neighbouring blocks of one subgroup
// differ in alignment. (A shift by 32 is a shift by 0 in WGSL, hence the
// select.)
fn w32(o: u32) -> u32 {
    let a = o >> 2u;
    return join32(W[a], W[a + 1u], o);
}
// join32 is w32 from lo and hi, the words at o / 4 and the one after.
fn join32(lo: u32, hi: u32, o: u32) -> u32 {
    let s = (o & 3u) * 8u;
    return (lo >> s) | select(hi << (32u - s), 0u, s == 0u);
}

// The four bytes of a word, each shifted right by sh and masked: nib4 gives
// the low nibbles (sh 4: the high ones), bits4 one bit, crumb4 two bits.
const BYTE_SHIFTS = vec4<u32>(0u, 8u, 16u, 24u);
fn nib4(w: u32, sh: u32) -> vec4<f32> { return vec4<f32>((vec4<u32>(w) >> (BYTE_SHIFTS + sh)) & vec4<u32>(15u)); }
fn bits4(w: u32, sh: u32) -> vec4<f32> { return vec4<f32>((vec4<u32>(w) >> (BYTE_SHIFTS + sh)) & vec4<u32>(1u)); }
fn crumb4(w: u32, sh: u32) -> vec4<f32> { return vec4<f32>((vec4<u32>(w) >> (BYTE_SHIFTS + sh)) & vec4<u32>(3u)); }
// s8x4 and u4x4 are a word's four bytes as integers, signed, and its
// four nibbles shifted right by sh and masked as nib4 takes them.
fn s8x4(w: u32) -> vec4<i32> { return (vec4<i32>(bitcast<i32>(w)) << (vec4<u32>(24u) - BYTE_SHIFTS)) >> vec4<u32>(24u); }
fn u4x4(w: u32, sh: u32) -> vec4<i32> { return vec4<i32>((vec4<u32>(w) >> (BYTE_SHIFTS + sh)) & vec4<u32>(15u)); }
// i8x4 is the four signed bytes of a word.
fn i8x4(w: u32) -> vec4<f32> { return vec4<f32>(s8x4(w)); }
// nib5 is four 5-bit values as bytes (Q5_0, Q5_1): the low nibbles of
// q's bytes, with bit k of h as byte k's bit 4.
fn nib5(q: u32, h: u32) -> u32 {
    let hb = (h & 1u) | ((h & 2u) << 7u) | ((h & 4u) << 14u) | ((h & 8u) << 21u);
    return (q & 0x0f0f0f0fu) | (hb << 4u);
}
// bit4 is bits sh..sh+3 of a word, one a lane.
fn bit4(w: u32, sh: u32) -> vec4<f32> { return vec4<f32>((vec4<u32>(w) >> (vec4<u32>(0u, 1u, 2u, 3u) + sh)) & vec4<u32>(1u)); }
fn hsum(v: vec4<f32>) -> f32 { return v.x + v.y + v.z + v.w; }
