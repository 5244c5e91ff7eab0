// Element reads of F32 caches (array<u32> K and V).
fn kload(i: u32) -> f32 { return bitcast<f32>(K[i]); }
fn vload(i: u32) -> f32 { return bitcast<f32>(V[i]); }
fn kload2(i: u32) -> vec2<f32> { return vec2<f32>(kload(i), kload(i + 1u)); }
fn vload2(i: u32) -> vec2<f32> { return vec2<f32>(vload(i), vload(i + 1u)); }
const HALF_CACHE = false;
