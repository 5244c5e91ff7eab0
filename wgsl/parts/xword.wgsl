// The matvecs bind their activations X as vec4<u32> words: rounded floats
// for most weight types (their bits, read back by xf), 8-bit integers for
// the types with integer dot products (xpart_q8). A float is reinterpreted
// from its word, never an integer from a float, which no driver may alter.
fn xf(i: u32) -> vec4<f32> { return bitcast<vec4<f32>>(X[i]); }
