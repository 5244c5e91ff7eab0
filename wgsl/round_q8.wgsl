// The 8-bit rounding of one activation of a block (quantize_act's modes 0
// and 1), given the block's largest magnitude m and, for mode 1, the
// first value v of that magnitude. Its divisions are rounded as the CPU's
// (div_exact): WGSL lets a / b be off by a few ulps, and a scale an ulp
// off moves every value of the block.
//!use exact_math

// The block's scales as the CPU stores them, set by round_q8: mode 0 the
// f16 d and the f32 one it is rounded from (Q8_1's sum is scaled by
// that), mode 1 the f32 d. The exact products recover the 8-bit values
// and multiply by these as the CPU does (round_block's write_scales).
var<private> block_scales: vec2<f32>;

fn round_q8(x: f32, m: f32, v: f32, mode: u32) -> f32 {
    if (mode == 0u) {
        // Q8_0: an f16 scale from the largest magnitude
        let d32 = div_exact(m, 127.0);
        let d = half(d32);
        block_scales = vec2<f32>(d, d32);
        var id = 0.0;
        if (m != 0.0) { id = div_exact(127.0, m); }
        return d * round(x * id);
    }
    // Q8_K: an f32 scale from the signed extreme
    block_scales = vec2<f32>(0.0);
    if (m == 0.0) { return 0.0; }
    let iscale = div_exact(-127.0, v);
    block_scales.x = div_exact(1.0, iscale);
    return block_scales.x * min(127.0, round(iscale * x));
}
