// ggml's rotation of pair p at a position: float32 angles advanced by
// theta_scale per pair, divided by frequency factors (FF), YaRN's ramp,
// magnitude scale. The rope constants are 9 words from base: dims, NeoX,
// theta_scale, freq_scale, ext_factor, YaRN range (2), mscale, has factors.

// Reduces an angle to [-π, π] in two steps (2π split in a head and a
// tail), so large positions keep their precision on any GPU's cos/sin.
fn reduce_angle(x: f32) -> f32 {
    let k = round(x * 0.15915494309189535);
    return (x - k * 6.28125) - k * 0.0019353071795864769;
}

// rope_cs is (cos, sin) of pair p at position pos, times mscale.
fn rope_cs(base: u32, p: u32, pos: u32) -> vec2<f32> {
    var theta = f32(pos);
    for (var k = 0u; k < p; k++) { theta *= pf(base + 2u); }
    var extrap = theta;
    if (pu(base + 8u) != 0u) { extrap = theta / FF[p]; }
    let interp = pf(base + 3u) * extrap;
    var th = interp;
    let ext = pf(base + 4u);
    if (ext != 0.0) {
        let y = (f32(p) - pf(base + 5u)) / max(0.001, pf(base + 6u) - pf(base + 5u));
        let mix = (1.0 - min(1.0, max(0.0, y))) * ext;
        th = interp * (1.0 - mix) + extrap * mix;
    }
    let r = reduce_angle(th);
    return vec2<f32>(cos(r), sin(r)) * pf(base + 7u);
}

// rope_pair is the element indices (a, b) rotated together as pair p.
fn rope_pair(base: u32, p: u32) -> vec2<u32> {
    if (pu(base + 1u) != 0u) { return vec2<u32>(p, p + pu(base) / 2u); }
    return vec2<u32>(2u * p, 2u * p + 1u);
}
