// Q6_K: super-blocks of 256 (210 bytes): 128 bytes of low nibbles, 64 of
// high 2-bit pairs, 16 int8 scales, f16 d; x = d·sc·(q - 32).
//!use bytes
fn dq(rb: u32, i: u32) -> f32 {
    let o = rb + (i / 256u) * 210u;
    let j = i % 256u;
    let n = j / 128u;
    let l = j % 128u;
    let quad = l / 32u;
    let l32 = l % 32u;
    let ql = b8(o + n * 64u + l32 + (quad & 1u) * 32u) >> ((quad / 2u) * 4u);
    let qh = b8(o + 128u + n * 32u + l32) >> (quad * 2u);
    let q = i32((ql & 15u) | ((qh & 3u) << 4u)) - 32;
    let sc = i8(o + 192u + n * 8u + l32 / 16u + quad * 2u);
    return h16(o + 208u) * f32(sc) * f32(q);
}
const BLOCK = 256u;
// dot_block: by halves of 128 values, each low-nibble and high-bit word
// read once for the four values it holds a part of.
fn dot_block(rb: u32, b: u32, xo: u32) -> f32 {
    let o = rb + b * 210u;
    var acc = 0.0;
    for (var n = 0u; n < 2u; n++) {
        let ql = o + 64u * n;
        let qh = o + 128u + 32u * n;
        let sc = o + 192u + 8u * n;
        let x = xo + 128u * n;
        for (var l = 0u; l < 32u; l++) {
            let a = b8(ql + l);
            let c = b8(ql + l + 32u);
            let h = b8(qh + l);
            let is = l / 16u;
            let q1 = f32(i32((a & 15u) | ((h & 3u) << 4u)) - 32);
            let q2 = f32(i32((c & 15u) | (((h >> 2u) & 3u) << 4u)) - 32);
            let q3 = f32(i32((a >> 4u) | (((h >> 4u) & 3u) << 4u)) - 32);
            let q4 = f32(i32((c >> 4u) | (((h >> 6u) & 3u) << 4u)) - 32);
            acc += f32(i8(sc + is)) * q1 * X[x + l] + f32(i8(sc + is + 2u)) * q2 * X[x + l + 32u]
                + f32(i8(sc + is + 4u)) * q3 * X[x + l + 64u] + f32(i8(sc + is + 6u)) * q4 * X[x + l + 96u];
        }
    }
    return h16(o + 208u) * acc;
}
