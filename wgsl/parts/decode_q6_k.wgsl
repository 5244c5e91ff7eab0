// Q6_K: super-blocks of 256 (210 bytes): 128 bytes of low nibbles, 64 of
// high 2-bit pairs, 16 int8 scales, f16 d; x = d·sc·(q - 32).
//!use bytes
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 256u) * 210u;
    let j = i % 256u;
    let n = j / 128u;
    let l = j % 128u;
    let quad = l / 32u;
    let l32 = l % 32u;
    let ql = b8(o + n * 64u + l32 + (quad & 1u) * 32u) >> ((quad / 2u) * 4u);
    let qh = b8(o + 128u + n * 32u + l32) >> (quad * 2u);
    let q = i32((ql & 15u) | ((qh & 3u) << 4u)) - 32;
    let sc = i8(o + 192u + n * 8u + l32 / 16u + quad * 2u);
    return h16(o + 208u) * f32(sc) * f32(q);
}
const BLOCK = 256u;
// q6_signed is four 6-bit values (low nibbles lo, high bit pairs hi at
// bit sh of each byte) as the signed bytes q − 32: q ^ 32 is q − 32 in six
// bits, its bit 5 then copied into bits 6 and 7 (no carry crosses bytes).
fn q6_signed(lo: u32, hi: u32, sh: u32) -> u32 {
    let q = (lo & 0x0f0f0f0fu) | (((hi >> sh) & 0x03030303u) << 4u);
    let t = q ^ 0x20202020u;
    let s = t & 0x20202020u;
    return t | (s << 1u) | (s << 2u);
}
