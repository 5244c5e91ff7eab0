// Out = silu(Gate) · Up, Gate bound as A and Up as B.
//!use binary
//!use expf
fn apply(g: f32, u: f32) -> f32 { return g / (1.0 + expf(-g)) * u; }
