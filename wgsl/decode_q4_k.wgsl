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
// dot_block: per group of 64 values, the two sub-block scales and minimums
// once and the 32 bytes of nibbles as eight words.
fn dot_block(rb: u32, b: u32, xo: u32) -> f32 {
    let o = rb + b * 144u;
    var acc = 0.0;
    var mins = 0.0;
    for (var g = 0u; g < 4u; g++) {
        let lo = kscale(o + 4u, 2u * g);
        let hi = kscale(o + 4u, 2u * g + 1u);
        var sl = 0.0;
        var sh = 0.0;
        var xl = 0.0;
        var xh = 0.0;
        for (var i = 0u; i < 8u; i++) {
            let q = W[(o + 16u + 32u * g + 4u * i) >> 2u];
            for (var k = 0u; k < 4u; k++) {
                let v = (q >> (8u * k)) & 0xffu;
                let j = xo + 64u * g + 4u * i + k;
                let a = X[j];
                let c = X[j + 32u];
                sl += f32(v & 15u) * a;
                sh += f32(v >> 4u) * c;
                xl += a;
                xh += c;
            }
        }
        acc += lo.x * sl + hi.x * sh;
        mins += lo.y * xl + hi.y * xh;
    }
    return h16(o) * acc - h16(o + 2u) * mins;
}
