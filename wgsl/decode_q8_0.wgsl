// Q8_0: blocks of 32: f16 d, int8 q[32]; x = d·q.
//!use bytes
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 32u) * 34u;
    return h16(o) * f32(i8(o + 2u + i % 32u));
}
const BLOCK = 32u;
// dot_block: the scale once, the 32 int8 values as eight words.
fn dot_block(rb: u32, b: u32, xo: u32) -> f32 {
    let o = rb + b * 34u;
    var s = 0.0;
    for (var i = 0u; i < 8u; i++) {
        let q = w32(o + 2u + 4u * i);
        for (var k = 0u; k < 4u; k++) {
            let v = f32((i32(q << (24u - 8u * k))) >> 24u);
            s += v * X[xo + 4u * i + k];
        }
    }
    return h16(o) * s;
}
