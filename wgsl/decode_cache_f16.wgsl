// Element reads of F16 caches (array<u32> K and V).
fn kload(i: u32) -> f32 {
    let w = K[i >> 1u];
    return unpack2x16float(select(w & 0xffffu, w >> 16u, (i & 1u) == 1u)).x;
}
fn vload(i: u32) -> f32 {
    let w = V[i >> 1u];
    return unpack2x16float(select(w & 0xffffu, w >> 16u, (i & 1u) == 1u)).x;
}
const HALF_CACHE = true;
