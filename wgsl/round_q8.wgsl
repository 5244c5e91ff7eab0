// The 8-bit rounding of activation blocks (quantize_act's modes 0 and 1),
// in two steps: q8_scales, once a block, from the block's largest
// magnitude m and, for mode 1, the first value v of that magnitude; then
// q8_round for each value. The divisions are rounded as the CPU's
// (div_exact): WGSL lets a / b be off by a few ulps, and a scale an ulp
// off moves every value of the block. They are long divisions in
// integers, which is why a workgroup does them once a block and shares
// the result rather than once a value.
//!use exact_math

// The block's scales as the CPU stores them, set by q8_scales in the thread
// that calls it: mode 0 the f16 d and the f32 one it is rounded from
// (Q8_1's sum is scaled by that), mode 1 the f32 d. The exact products
// recover the 8-bit values and multiply by these as the CPU does
// (round_block's write_scales).
var<private> block_scales: vec2<f32>;

// q8_scales returns (d, 1/d as the CPU takes it, the f32 d of mode 0).
fn q8_scales(m: f32, v: f32, mode: u32) -> vec3<f32> {
    if (mode == 0u) {
        // Q8_0: an f16 scale from the largest magnitude
        let d32 = div_exact(m, 127.0);
        let d = half(d32);
        block_scales = vec2<f32>(d, d32);
        var id = 0.0;
        if (m != 0.0) { id = div_exact(127.0, m); }
        return vec3<f32>(d, id, d32);
    }
    // Q8_K: an f32 scale from the signed extreme
    block_scales = vec2<f32>(0.0);
    if (m == 0.0) { return vec3<f32>(0.0); }
    let iscale = div_exact(-127.0, v);
    block_scales.x = div_exact(1.0, iscale);
    return vec3<f32>(block_scales.x, iscale, 0.0);
}

// q8_round rounds x with its block's q8_scales s.
fn q8_round(x: f32, s: vec3<f32>, mode: u32) -> f32 {
    if (mode == 0u) { return s.x * round(x * s.y); }
    // An all-zero Q8_K block is +0 throughout, as the CPU's.
    if (s.x == 0.0) { return 0.0; }
    return s.x * min(127.0, round(s.y * x));
}
