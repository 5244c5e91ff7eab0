// RMSNorm as rmsnorm.wgsl with the CPU backend's factor (exact mode).
//!swap rms_scale rms_scale_exact
//!use rmsnorm
