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
