// Q5_1: blocks of 32: f16 d, f16 m, 32 high bits, 16 bytes of nibbles;
// x = d·q + m.
//!use bytes
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 32u) * 24u;
    let j = i % 32u;
    let lo = (b8(o + 8u + j % 16u) >> ((j / 16u) * 4u)) & 15u;
    let hi = (u32le(o + 4u) >> j) & 1u;
    return h16(o) * f32(lo | (hi << 4u)) + h16(o + 2u);
}
const BLOCK = 32u;
