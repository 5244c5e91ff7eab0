// The column scales of the integer tiles (tile_mul_i8) over activations
// packed as Q8_0 (quantize_act's mode 4): block b's f32 scale in word
// K/4+2b of the row at word xo and the sum of its integers (as f32 bits)
// in the word after; for block blk, the scale and the scale times that
// sum, which the weights' minimums multiply where they have them (Q4_1,
// Q5_1; HAS_MIN).
fn load_xdm(xo: u32, K: u32, blk: u32) -> vec2<f32> {
    let h = xo + K / 4u + 2u * blk;
    let d = bitcast<f32>(X[h]);
    return vec2<f32>(d, d * bitcast<f32>(X[h + 1u]));
}
// scale_less_min is the f16 scale and minimum in a Q4_1 or Q5_1 block's
// first word as tile_mul_i8 takes a row's (d, minimum): the value is
// d·q + m, and the tile subtracts its minimum term, so m is negated.
fn scale_less_min(w: u32) -> vec2<f32> {
    let dm = unpack2x16float(w);
    return vec2<f32>(dm.x, -dm.y);
}
