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
// dot_block is block b of the row at byte rb times X[xo..xo+32]: the scale
// once, the 16 bytes of nibbles as four words.
fn dot_block(rb: u32, b: u32, xo: u32) -> f32 {
    let o = rb + b * 18u;
    var s = 0.0;
    for (var i = 0u; i < 4u; i++) {
        let q = w32(o + 2u + 4u * i);
        for (var k = 0u; k < 4u; k++) {
            let v = (q >> (8u * k)) & 0xffu;
            let j = 4u * i + k;
            s += (f32(v & 15u) - 8.0) * X[xo + j] + (f32(v >> 4u) - 8.0) * X[xo + j + 16u];
        }
    }
    return h16(o) * s;
}
