// The gated unit of a SwiGLU feed-forward, silu(g)·u, with the CPU
// backend's exponential (ember_expf).
//!use expf
inline float silu_mul(float g, float u) { return g / (1.0f + ember_expf(-g)) * u; }
