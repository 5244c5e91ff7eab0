// Q6_K in the tiled product: a slice is quarter s % 4 of half s / 4 of a
// super-block (values l = 0..31 of decode_q6_k's quad), a part eight of
// them: eight low-nibble bytes, eight bytes of high bit pairs and the one
// scale they share. 210-byte blocks leave them unaligned: each run of
// eight bytes comes from three words.
//!use decode_q6_k
//!use tile_parts
struct Raw { ql: vec3<u32>, qh: vec3<u32>, sc: u32, d: u32 }
// q6_bytes is where a part's low nibbles, high bits and scale are.
fn q6_bytes(rb: u32, k0: u32, part: u32) -> vec4<u32> {
    let o = rb + (k0 / 256u) * 210u;
    let s = (k0 % 256u) / 32u;
    let n = s / 4u;
    let quad = s % 4u;
    let l = 8u * part;
    return vec4<u32>(o + 64u * n + 32u * (quad & 1u) + l, o + 128u + 32u * n + l, o + 192u + 8u * n + l / 16u + 2u * quad, o + 208u);
}
fn fetch(rb: u32, k0: u32, part: u32) -> Raw {
    let b = q6_bytes(rb, k0, part) >> vec4<u32>(2u);
    return Raw(vec3<u32>(W[b.x], W[b.x + 1u], W[b.x + 2u]), vec3<u32>(W[b.y], W[b.y + 1u], W[b.y + 2u]), W[b.z], W[b.w]);
}
fn unpack(r: Raw, rb: u32, k0: u32, part: u32) -> Vals {
    let b = q6_bytes(rb, k0, part);
    let quad = ((k0 % 256u) / 32u) % 4u;
    let lsh = (quad / 2u) * 4u;
    let hsh = quad * 2u;
    let l0 = join32(r.ql.x, r.ql.y, b.x);
    let l1 = join32(r.ql.y, r.ql.z, b.x);
    let h0 = join32(r.qh.x, r.qh.y, b.y);
    let h1 = join32(r.qh.y, r.qh.z, b.y);
    let sc = f32((i32(r.sc >> ((b.z & 3u) * 8u)) << 24u) >> 24u);
    let d = half_in(r.d, b.w) * sc;
    return Vals(d * (nib4(l0, lsh) + 16.0 * crumb4(h0, hsh) - 32.0), d * (nib4(l1, lsh) + 16.0 * crumb4(h1, hsh) - 32.0));
}
fn tile_at(part: u32) -> vec2<u32> { return vec2<u32>(8u * part, 8u * part + 4u); }
