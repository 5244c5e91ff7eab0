// Out = silu(Gate) · Up, Gate bound as A and Up as B.
//!use binary
//!use silu
fn apply(g: f32, u: f32) -> f32 { return swiglu(g, u); }
