// The router as route.wgsl with the CPU backend's arithmetic (exact mode).
//!swap route_gating route_gating_exact
//!use route
