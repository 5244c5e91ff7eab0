// Q5_K: super-blocks of 256 (176 bytes): f16 d, f16 dmin, 12 scale bytes,
// 32 bytes of high bits, 128 bytes of nibbles laid out as in Q4_K.
//!use kscale
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 256u) * 176u;
    let j = i % 256u;
    let g = j / 64u;
    let l = j % 64u;
    let lo = (b8(o + 48u + g * 32u + l % 32u) >> ((l / 32u) * 4u)) & 15u;
    let hi = (b8(o + 16u + l % 32u) >> (2u * g + l / 32u)) & 1u;
    let sm = kscale(o + 4u, 2u * g + l / 32u);
    return h16(o) * sm.x * f32(lo | (hi << 4u)) - h16(o + 2u) * sm.y;
}
const BLOCK = 256u;
