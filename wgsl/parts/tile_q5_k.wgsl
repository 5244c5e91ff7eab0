// Q5_K in the tiled product: slices and parts as in Q4_K (tile_q4_k), each
// part with the two words of high bits its values share (bit s of each
// byte for sub-block s). Blocks of 176 bytes keep every field
// word-aligned.
//!use decode_q5_k
//!use tile_parts
struct Raw { dm: u32, sc: vec3<u32>, q: vec2<u32>, h: vec2<u32> }
fn fetch(rb: u32, k0: u32, part: u32) -> Raw {
    let o = (rb + (k0 / 256u) * 176u) >> 2u;
    let q = o + 12u + 8u * ((k0 % 256u) / 64u) + 2u * part;
    let h = o + 4u + 2u * part;
    return Raw(W[o], vec3<u32>(W[o + 1u], W[o + 2u], W[o + 3u]), vec2<u32>(W[q], W[q + 1u]), vec2<u32>(W[h], W[h + 1u]));
}
fn unpack(r: Raw, rb: u32, k0: u32, part: u32) -> Vals {
    let s = (k0 % 256u) / 32u;
    let dm = kscale_dm(r.dm, r.sc, s);
    let sh = (s % 2u) * 4u;
    let a = nib4(r.q.x, sh) + 16.0 * bits4(r.h.x, s);
    let b = nib4(r.q.y, sh) + 16.0 * bits4(r.h.y, s);
    return Vals(dm.x * a - dm.y, dm.x * b - dm.y);
}
fn tile_at(part: u32) -> vec2<u32> { return vec2<u32>(8u * part, 8u * part + 4u); }
