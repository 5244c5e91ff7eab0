// The tiled product's loads for the weight types without a loader of
// their own: eight values of the element decoder (decode_TYPE), decoded
// as they are fetched. Rows of F32 and F16 weights may end inside a slice
// (K of any length): values past K are zero.
//!use tile_parts
struct Raw { v: Vals }
fn tile_value(rb: u32, k: u32) -> f32 {
    let K = pu(P_K);
    return select(0.0, dq(rb, min(k, K - 1u)), k < K);
}
fn fetch(rb: u32, k0: u32, part: u32) -> Raw {
    let k = k0 + 8u * part;
    let a = vec4<f32>(tile_value(rb, k), tile_value(rb, k + 1u), tile_value(rb, k + 2u), tile_value(rb, k + 3u));
    let b = vec4<f32>(tile_value(rb, k + 4u), tile_value(rb, k + 5u), tile_value(rb, k + 6u), tile_value(rb, k + 7u));
    return Raw(Vals(a, b));
}
fn unpack(r: Raw, rb: u32, k0: u32, part: u32) -> Vals { return r.v; }
fn tile_at(part: u32) -> vec2<u32> { return vec2<u32>(8u * part, 8u * part + 4u); }
