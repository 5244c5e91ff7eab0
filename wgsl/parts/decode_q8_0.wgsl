// Q8_0: blocks of 32: f16 d, int8 q[32]; x = d·q.
//!use bytes
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 32u) * 34u;
    return h16(o) * f32(i8(o + 2u + i % 32u));
}
const BLOCK = 32u;
