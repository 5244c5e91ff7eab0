// Element reads of F32 caches (array<u32> K and V).
fn kload(i: u32) -> f32 { return bitcast<f32>(K[i]); }
fn vload(i: u32) -> f32 { return bitcast<f32>(V[i]); }
fn kload2(i: u32) -> vec2<f32> { return vec2<f32>(kload(i), kload(i + 1u)); }
fn vload2(i: u32) -> vec2<f32> { return vec2<f32>(vload(i), vload(i + 1u)); }
const HALF_CACHE = false;
// A vector of four values as workgroup memory holds queries rounded like
// the cache (attention_heads): f32 as they are.
alias Held4 = vec4<f32>;
fn hold4(x: vec4<f32>) -> Held4 { return x; }
fn held4(h: Held4) -> vec4<f32> { return h; }
