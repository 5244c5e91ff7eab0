// F16 weights in the exact products (exact_float); their activations are
// already rounded to f16. ggml_vec_dot_f16 adds the values past the last
// 64-value step in float64, which WGSL lacks: the compiler sends rows of
// such lengths elsewhere (exactFloatTail).
//!use exact_float
//!use bytes
fn wv(rb: u32, k: u32) -> f32 { return h16(rb + 2u * k); }

fn float_tail(head: f32, rb: u32, xo: u32, np: u32, K: u32) -> f32 { return head; }

fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 { return float_dot(rb, xo, K, order); }
