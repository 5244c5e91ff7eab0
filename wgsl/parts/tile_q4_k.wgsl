// Q4_K in the tiled product: a slice is sub-block s of a super-block (the
// low nibbles of group s / 2 for even s, the high ones for odd), a part
// two words of its nibbles, each with the sub-block's scale and minimum.
// Blocks of 144 bytes keep every field word-aligned.
//!use decode_q4_k
//!use tile_parts
struct Raw { dm: u32, sc: vec3<u32>, q: vec2<u32> }
fn fetch(rb: u32, k0: u32, part: u32) -> Raw {
    let o = (rb + (k0 / 256u) * 144u) >> 2u;
    let q = o + 4u + 8u * ((k0 % 256u) / 64u) + 2u * part;
    return Raw(W[o], vec3<u32>(W[o + 1u], W[o + 2u], W[o + 3u]), vec2<u32>(W[q], W[q + 1u]));
}
fn unpack(r: Raw, rb: u32, k0: u32, part: u32) -> Vals {
    let s = (k0 % 256u) / 32u;
    let dm = kscale_dm(r.dm, r.sc, s);
    let sh = (s % 2u) * 4u;
    return Vals(dm.x * nib4(r.q.x, sh) - dm.y, dm.x * nib4(r.q.y, sh) - dm.y);
}
fn tile_at(part: u32) -> vec2<u32> { return vec2<u32>(8u * part, 8u * part + 4u); }
