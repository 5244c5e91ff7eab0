// The matvecs bind their activations X as vec4<u32> words: rounded floats
// for most weight types (their bits, read back by xf), 8-bit integers for
// the types with integer dot products (xpart_q8, xpart_q8k). Floats are
// reinterpreted from words, and the packed integers never pass through a
// float type, where a driver may quiet a NaN's bits.
fn xf(i: u32) -> vec4<f32> { return bitcast<vec4<f32>>(X[i]); }
