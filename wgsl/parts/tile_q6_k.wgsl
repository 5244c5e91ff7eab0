// Q6_K in the tiled product, in integers (tile_mul_i8): a slice is
// quarter s % 4 of half s / 4 of a super-block (values l = 0..31 of
// decode_q6_k's quad), a part eight of them as the signed bytes q − 32
// (q6_signed), over activations packed as Q8_K (tile_x_q8k). The slice's
// values 0..15 and 16..31 have scales of their own (HALF_SCALES): its
// first four words and its last four are summed apart. 210-byte blocks
// leave the runs unaligned: each run of eight bytes comes from three
// words.
//!use decode_q6_k
//!swap tile_mul tile_mul_i8
//!use tile_x_q8k
const HAS_MIN = false;
const HALF_SCALES = true;
fn load_w(rb: u32, blk: u32, part: u32) -> vec2<u32> {
    let o = rb + (blk / 8u) * 210u;
    let s = blk % 8u;
    let n = s / 4u;
    let quad = s % 4u;
    let l = 8u * part;
    let lo = o + 64u * n + 32u * (quad & 1u) + l;
    let hi = o + 128u + 32u * n + l;
    let a = lo >> 2u;
    let b = hi >> 2u;
    let l0 = W[a];
    let l1 = W[a + 1u];
    let l2 = W[a + 2u];
    let h0 = W[b];
    let h1 = W[b + 1u];
    let h2 = W[b + 2u];
    let lsh = (quad / 2u) * 4u;
    let hsh = 2u * quad;
    return vec2<u32>(q6_signed(join32(l0, l1, lo) >> lsh, join32(h0, h1, hi), hsh),
                     q6_signed(join32(l1, l2, lo) >> lsh, join32(h1, h2, hi), hsh));
}
// w_slots is where part p's two words sit among a row's eight: in value
// order, so words 0..3 are the values of the first scale.
fn w_slots(part: u32) -> vec2<u32> { return vec2<u32>(2u * part, 2u * part + 1u); }
// load_dm is the slice's two scales times the super-block's d.
fn load_dm(rb: u32, blk: u32) -> vec2<f32> {
    let o = rb + (blk / 8u) * 210u;
    let s = blk % 8u;
    let sc = s8x4(w32(o + 192u + 8u * (s / 4u) + 2u * (s % 4u)));
    let d = h16(o + 208u);
    return vec2<f32>(d * f32(sc.x), d * f32(sc.y));
}
