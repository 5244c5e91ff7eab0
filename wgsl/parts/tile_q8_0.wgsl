// Q8_0 in the tiled product: a slice is one block, a part eight of its
// bytes, which 34-byte blocks leave unaligned: they come from three words.
//!use decode_q8_0
//!use tile_parts
struct Raw { d: u32, q: vec3<u32> }
fn fetch(rb: u32, k0: u32, part: u32) -> Raw {
    let o = rb + (k0 / 32u) * 34u;
    let q = (o + 2u + 8u * part) >> 2u;
    return Raw(W[o >> 2u], vec3<u32>(W[q], W[q + 1u], W[q + 2u]));
}
fn unpack(r: Raw, rb: u32, k0: u32, part: u32) -> Vals {
    let o = rb + (k0 / 32u) * 34u;
    let d = half_in(r.d, o);
    let q = o + 2u + 8u * part;
    return Vals(d * i8x4(join32(r.q.x, r.q.y, q)), d * i8x4(join32(r.q.y, r.q.z, q)));
}
fn tile_at(part: u32) -> vec2<u32> { return vec2<u32>(8u * part, 8u * part + 4u); }
