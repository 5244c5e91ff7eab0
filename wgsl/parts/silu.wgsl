// The gated unit of a SwiGLU feed-forward, silu(g)·u, shared by its
// elementwise kernel and the matvec epilogue that replaces it.
//!use expf
fn swiglu(g: f32, u: f32) -> f32 { return g / (1.0 + expf(-g)) * u; }
