// The 8-bit rounding of one activation of a block (quantize_act's modes 0
// and 1), given the block's largest magnitude m and, for mode 1, the
// first value v of that magnitude.
fn round_q8(x: f32, m: f32, v: f32, mode: u32) -> f32 {
    if (mode == 0u) {
        // Q8_0: an f16 scale from the largest magnitude
        let d = half(m / 127.0);
        var id = 0.0;
        if (m != 0.0) { id = 127.0 / m; }
        return d * round(x * id);
    }
    // Q8_K: an f32 scale from the signed extreme
    if (m == 0.0) { return 0.0; }
    let iscale = -127.0 / v;
    return (1.0 / iscale) * min(127.0, round(iscale * x));
}
