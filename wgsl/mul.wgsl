// Out = A · B, B broadcasting.
//!use binary
fn apply(a: f32, b: f32) -> f32 { return a * b; }
