// The 8-bit rounding of activation blocks (quantize_act's modes 0 and 1),
// in two steps: q8_scales, once a block, from the block's largest
// magnitude m and, for mode 1, the first value v of that magnitude; then
// q8_round for each value. The scales are the CPU's formulas (ggml's
// quantize_row_q8_0 and q8_K); WGSL's division may be a few ulps off
// IEEE's, which moves a value of the block to the next 8-bit step now and
// then: one of the last-bit differences the parity bounds allow.

// q8_scales returns (d, 1/d as the CPU takes it, the f32 d of mode 0).
fn q8_scales(m: f32, v: f32, mode: u32) -> vec3<f32> {
    if (mode == 0u) {
        // Q8_0: an f16 scale from the largest magnitude
        let d32 = m / 127.0;
        var id = 0.0;
        if (m != 0.0) { id = 127.0 / m; }
        return vec3<f32>(half(d32), id, d32);
    }
    // Q8_K: an f32 scale from the signed extreme
    if (m == 0.0) { return vec3<f32>(0.0); }
    let iscale = -127.0 / v;
    return vec3<f32>(1.0 / iscale, iscale, 0.0);
}

// q8_round rounds x with its block's q8_scales s.
fn q8_round(x: f32, s: vec3<f32>, mode: u32) -> f32 {
    if (mode == 0u) { return s.x * round(x * s.y); }
    // An all-zero Q8_K block is +0 throughout, as the CPU's.
    if (s.x == 0.0) { return 0.0; }
    return s.x * min(127.0, round(s.y * x));
}

// q8_int is x's 8-bit integer under mode 0's scales s (q8_round's
// integer), and pack_q8 four such integers as one word, the first in the
// low byte: the packed rounding (mode 4) of the integer matvecs.
fn q8_int(x: f32, s: vec3<f32>) -> i32 { return i32(round(x * s.y)); }
fn pack_q8(a: i32, b: i32, c: i32, d: i32) -> u32 {
    let q = vec4<u32>(bitcast<u32>(a), bitcast<u32>(b), bitcast<u32>(c), bitcast<u32>(d)) & vec4<u32>(0xffu);
    return q.x | (q.y << 8u) | (q.z << 16u) | (q.w << 24u);
}
// q8k_int is x's 8-bit integer under mode 1's scales s (q8_round's
// integer: 0 throughout an all-zero block): the packed Q8_K rounding
// (mode 5).
fn q8k_int(x: f32, s: vec3<f32>) -> i32 {
    if (s.x == 0.0) { return 0; }
    return i32(min(127.0, round(s.y * x)));
}
