// Q4_K: super-blocks of 256 (144 bytes): f16 d, f16 dmin, 12 scale bytes,
// 128 bytes of nibbles in groups of 64 values (32 low, then 32 high);
// x = d·sc·q - dmin·m per sub-block of 32.
//!use kscale
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 256u) * 144u;
    let j = i % 256u;
    let g = j / 64u;
    let l = j % 64u;
    let q = (b8(o + 16u + g * 32u + l % 32u) >> ((l / 32u) * 4u)) & 15u;
    let sm = kscale(o + 4u, 2u * g + l / 32u);
    return h16(o) * sm.x * f32(q) - h16(o + 2u) * sm.y;
}
const BLOCK = 256u;
