// The column scales of the integer tiles (tile_mul_i8) over activations
// packed as Q8_0 (quantize_act's mode 4): block b's f32 scale in word
// K/4+2b of the row at word xo.
fn load_xdm(xo: u32, K: u32, blk: u32) -> vec2<f32> { return vec2<f32>(bitcast<f32>(X[xo + K / 4u + 2u * blk]), 0.0); }
