// ggml's rotation of pair p at a position: float32 angles advanced by
// ThetaScale per pair, divided by frequency factors (FF), YaRN's ramp
// (the mix fused as llama.cpp's build computes it), magnitude scale.
// Words: ropeParams.

// reduce_angle reduces an angle to [-π, π] in two steps (2π split in a
// head and a tail), so large positions keep their precision.
inline float reduce_angle(float x) {
    float k = rint(x * 0.15915494309189535f);
    return (x - k * 6.28125f) - k * 0.0019353071795864769f;
}

// cos_sin is (cos x, sin x) for x in [-π, π] to about an ulp, as the CPU
// backend's float64 cos and sin rounded to float32 are (Metal's cos and
// sin are only held to a few ulp): Cephes' sinf and cosf, a quadrant's
// worth of π/2 taken off in three parts, then their polynomials on
// [-π/4, π/4].
inline float2 cos_sin(float x) {
    float j = rint(x * 0.63661977236758134f);
    float y = ((x - j * 1.5703125f) - j * 4.837512969970703125e-4f) - j * 7.54978995489188216e-8f;
    float z = y * y;
    float s = ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * y + y;
    float c = ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z * z - 0.5f * z + 1.0f;
    switch (int(j) & 3) {
    case 1: return float2(-s, c);
    case 2: return float2(-c, -s);
    case 3: return float2(s, -c);
    default: return float2(c, s);
    }
}

// rope_cs is (cos, sin) of pair p at position pos, times the magnitude.
inline float2 rope_cs(constant Params& P, device const float* FF, uint p, uint pos) {
    float theta = float(pos);
    for (uint k = 0; k < p; k++) theta *= P.ThetaScale;
    float extrap = P.HasFactors != 0 ? theta / FF[p] : theta;
    float interp = P.FreqScale * extrap;
    float th = interp;
    if (P.ExtFactor != 0.0f) {
        float y = (float(p) - P.CorrLo) / max(0.001f, P.CorrHi - P.CorrLo);
        float mix = (1.0f - min(1.0f, max(0.0f, y))) * P.ExtFactor;
        th = fma(interp, 1.0f - mix, extrap * mix);
    }
    return cos_sin(reduce_angle(th)) * P.Mscale;
}

// rope_pair is the element indices (a, b) rotated together as pair p.
inline uint2 rope_pair(constant Params& P, uint p) {
    if (P.RopeNeox != 0) return uint2(p, p + P.RopeDims / 2);
    return uint2(2 * p, 2 * p + 1);
}
