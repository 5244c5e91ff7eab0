// Q4_0 in the tiled product: a slice is one block, a part one word of its
// nibbles (values 4p..4p+3 and 16+4p..16+4p+3, as xpart_halves takes them). Blocks of
// 18 bytes leave the word unaligned: it comes from two.
//!use decode_q4_0
//!use tile_parts
struct Raw { d: u32, lo: u32, hi: u32 }
fn fetch(rb: u32, k0: u32, part: u32) -> Raw {
    let o = rb + (k0 / 32u) * 18u;
    let q = (o + 2u + 4u * part) >> 2u;
    return Raw(W[o >> 2u], W[q], W[q + 1u]);
}
fn unpack(r: Raw, rb: u32, k0: u32, part: u32) -> Vals {
    let o = rb + (k0 / 32u) * 18u;
    let d = half_in(r.d, o);
    let q = join32(r.lo, r.hi, o + 2u + 4u * part);
    return Vals(d * (nib4(q, 0u) - 8.0), d * (nib4(q, 4u) - 8.0));
}
fn tile_at(part: u32) -> vec2<u32> { return vec2<u32>(4u * part, 16u + 4u * part); }
