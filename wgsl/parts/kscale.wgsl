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

// kscale_w is kscale from the three words w holding the 12 scale bytes.
// Both halves are computed and one selected: the threads of a subgroup
// take different sub-blocks.
fn kscale_w(w: vec3<u32>, j: u32) -> vec2<f32> {
    let k = (j & 3u) * 8u;
    let a = (w.x >> k) & 0xffu;
    let b = (w.y >> k) & 0xffu;
    let c = (w.z >> k) & 0xffu;
    let low = vec2<u32>(a & 63u, b & 63u);
    let high = vec2<u32>((c & 15u) | ((a >> 6u) << 4u), (c >> 4u) | ((b >> 6u) << 4u));
    return vec2<f32>(select(high, low, j < 4u));
}

// kscale_dm is sub-block j's scale and minimum times the super-block's d
// and dmin (the word dm holds both), from the scale words w.
fn kscale_dm(dm: u32, w: vec3<u32>, j: u32) -> vec2<f32> { return unpack2x16float(dm) * kscale_w(w, j); }
