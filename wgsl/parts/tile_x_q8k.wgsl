// The column scales of the integer tiles (tile_mul_i8) over activations
// packed as Q8_K (quantize_act's mode 5): super-block B's f32 scale in
// word K/4+20B of the row at word xo and the sums of its runs of 16 in
// words K/4+20B+4 ..; for the 32-value block blk, the scale and the scale
// times the block's integer sum (two runs), which the weights' minimums
// multiply where they have them (HAS_MIN).
fn load_xdm(xo: u32, K: u32, blk: u32) -> vec2<f32> {
    let h = xo + K / 4u + 20u * (blk / 8u);
    let r = h + 4u + 2u * (blk % 8u);
    let d = bitcast<f32>(X[h]);
    return vec2<f32>(d, d * f32(bitcast<i32>(X[r]) + bitcast<i32>(X[r + 1u])));
}
