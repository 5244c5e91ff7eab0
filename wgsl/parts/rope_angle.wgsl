// ggml's rotation of pair p at a position: float32 angles advanced by
// theta_scale per pair, divided by frequency factors (FF), YaRN's ramp,
// magnitude scale. Words: ropeParams.

// Reduces an angle to [-π, π] in two steps (2π split in a head and a
// tail), so large positions keep their precision.
fn reduce_angle(x: f32) -> f32 {
    let k = round(x * 0.15915494309189535);
    return (x - k * 6.28125) - k * 0.0019353071795864769;
}

// cos_sin is (cos x, sin x) for x in [-π, π] to about an ulp, as the CPU
// backend's float64 cos and sin rounded to float32 are: WGSL lets cos()
// and sin() err by 2^-11 absolute there, and browsers' software adapters
// (SwiftShader) do err by 1e-5 and more. Cephes' sinf and cosf: a
// quadrant's worth of π/2 taken off in three exact-ish parts, then their
// polynomials on [-π/4, π/4].
fn cos_sin(x: f32) -> vec2<f32> {
    let j = round(x * 0.63661977236758134);
    let y = ((x - j * 1.5703125) - j * 4.837512969970703125e-4) - j * 7.54978995489188216e-8;
    let z = y * y;
    let s = ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * y + y;
    let c = ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z - 0.5 * z + 1.0;
    switch (i32(j) & 3) {
        case 1: { return vec2<f32>(-s, c); }
        case 2: { return vec2<f32>(-c, -s); }
        case 3: { return vec2<f32>(s, -c); }
        default: { return vec2<f32>(c, s); }
    }
}

// rope_cs is (cos, sin) of pair p at position pos, times mscale.
fn rope_cs(p: u32, pos: u32) -> vec2<f32> {
    var theta = f32(pos);
    for (var k = 0u; k < p; k++) { theta *= pf(P_THETA_SCALE); }
    var extrap = theta;
    if (pu(P_HAS_FACTORS) != 0u) { extrap = theta / FF[p]; }
    let interp = pf(P_FREQ_SCALE) * extrap;
    var th = interp;
    let ext = pf(P_EXT_FACTOR);
    if (ext != 0.0) {
        let y = (f32(p) - pf(P_CORR_LO)) / max(0.001, pf(P_CORR_HI) - pf(P_CORR_LO));
        let mix = (1.0 - min(1.0, max(0.0, y))) * ext;
        th = interp * (1.0 - mix) + extrap * mix;
    }
    return cos_sin(reduce_angle(th)) * pf(P_MSCALE);
}

// rope_pair is the element indices (a, b) rotated together as pair p.
fn rope_pair(p: u32) -> vec2<u32> {
    if (pu(P_ROPE_NEOX) != 0u) { return vec2<u32>(p, p + pu(P_ROPE_DIMS) / 2u); }
    return vec2<u32>(2u * p, 2u * p + 1u);
}
