// The 6-bit scale and minimum of sub-block j of a Q4_K/Q5_K super-block
// whose 12 scale bytes start at byte s.
//!use bytes
fn kscale(s: u32, j: u32) -> vec2<f32> {
    if (j < 4u) {
        return vec2<f32>(f32(b8(s + j) & 63u), f32(b8(s + j + 4u) & 63u));
    }
    let d = (b8(s + j + 4u) & 15u) | ((b8(s + j - 4u) >> 6u) << 4u);
    let m = (b8(s + j + 4u) >> 4u) | ((b8(s + j) >> 6u) << 4u);
    return vec2<f32>(f32(d), f32(m));
}
