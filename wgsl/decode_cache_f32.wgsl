// Element reads of F32 caches (array<u32> K and V).
fn kload(i: u32) -> f32 { return bitcast<f32>(K[i]); }
fn vload(i: u32) -> f32 { return bitcast<f32>(V[i]); }
const HALF_CACHE = false;
