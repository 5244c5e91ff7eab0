// Element reads of F16 caches (array<u32> K and V).
fn kload(i: u32) -> f32 {
    let w = K[i >> 1u];
    return unpack2x16float(select(w & 0xffffu, w >> 16u, (i & 1u) == 1u)).x;
}
fn vload(i: u32) -> f32 {
    let w = V[i >> 1u];
    return unpack2x16float(select(w & 0xffffu, w >> 16u, (i & 1u) == 1u)).x;
}
// kload2 and vload2 are elements i and i+1: one word where i is even.
fn kload2(i: u32) -> vec2<f32> {
    if ((i & 1u) == 0u) { return unpack2x16float(K[i >> 1u]); }
    return vec2<f32>(kload(i), kload(i + 1u));
}
fn vload2(i: u32) -> vec2<f32> {
    if ((i & 1u) == 0u) { return unpack2x16float(V[i >> 1u]); }
    return vec2<f32>(vload(i), vload(i + 1u));
}
const HALF_CACHE = true;
// A vector of four values as workgroup memory holds queries rounded like
// the cache (attention_heads): f16 values, so two words hold them exactly
// and a workgroup holds half the bytes (four 576-value latent heads: 4.6
// KiB, not 9.2).
alias Held4 = vec2<u32>;
fn hold4(x: vec4<f32>) -> Held4 { return vec2<u32>(pack_half2(x.xy), pack_half2(x.zw)); }
fn held4(h: Held4) -> vec4<f32> { return vec4<f32>(unpack2x16float(h.x), unpack2x16float(h.y)); }
