// Q5_1 in the exact products: as Q4_1 (exact_minimums), with the fifth
// bits.
//!use exact_record
//!use exact_minimums
const EXACT_BLOCK = 32u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 24u;
    let a = act_block(xo, so, 32u, b);
    let qh = u32le(o + 4u);
    var r: Rec;
    r.f = vec4<f32>(h16(o), a.d, h16(o + 2u), a.d32);
    for (var j = 0u; j < 32u; j++) {
        let y = aq(a, j);
        r.s[8] += y;
        let q = ((b8(o + 8u + j % 16u) >> (4u * (j / 16u))) & 15u) | (((qh >> j) & 1u) << 4u);
        r.s[j / 4u] += i32(q) * y;
    }
    return r;
}
