// Out = In · s (In is bound as both A and B).
//!use binary
fn apply(a: f32, b: f32) -> f32 { return a * pf(P_S) + 0.0 * b; }
