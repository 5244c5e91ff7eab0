// The gated unit silu(g)·u as the CPU backend computes it (siluGGML):
// g / (1 + exp_ggml(0 - g)) · u, the division correctly rounded. Swapped
// in for silu in the exact mode.
//!use exact_math
fn swiglu(g: f32, u: f32) -> f32 {
    let d = 1.0 + exp_ggml(0.0 - g);
    // An overflowed exp: g / inf is a zero of g's sign, which a driver's
    // builtin division need not give.
    if (bitcast<u32>(d) == 0x7f800000u) { return select(0.0, -0.0, g < 0.0) * u; }
    return div_exact(g, d) * u;
}
