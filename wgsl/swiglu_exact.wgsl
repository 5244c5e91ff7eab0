// Out = silu(Gate) · Up as swiglu.wgsl, silu as the CPU computes it
// (exact mode).
//!swap silu silu_exact
//!use swiglu
