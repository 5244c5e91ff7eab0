// Q5_0: blocks of 32: f16 d, 32 high bits, 16 bytes of nibbles;
// x = d·(q - 16).
//!use bytes
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 32u) * 22u;
    let j = i % 32u;
    let lo = (b8(o + 6u + j % 16u) >> ((j / 16u) * 4u)) & 15u;
    let hi = (u32le(o + 2u) >> j) & 1u;
    return h16(o) * (f32(lo | (hi << 4u)) - 16.0);
}
const BLOCK = 32u;
