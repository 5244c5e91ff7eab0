// Q4_1: blocks of 32: f16 d, f16 m, 16 bytes of nibbles; x = d·q + m.
//!use bytes
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 32u) * 20u;
    let j = i % 32u;
    let q = (b8(o + 4u + j % 16u) >> ((j / 16u) * 4u)) & 15u;
    return h16(o) * f32(q) + h16(o + 2u);
}
const BLOCK = 32u;
