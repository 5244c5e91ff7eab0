// Q4_0: blocks of 32: f16 d, 16 bytes of nibbles (low: values 0..15, high:
// 16..31); x = d·(q - 8).
//!use bytes
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 32u) * 18u;
    let j = i % 32u;
    let q = (b8(o + 2u + j % 16u) >> ((j / 16u) * 4u)) & 15u;
    return h16(o) * (f32(q) - 8.0);
}
const BLOCK = 32u;
