// F16 weights, one value a block.
//!use bytes
const BLOCK = 1u;
fn dq(rb: u32, i: u32) -> f32 { return h16(rb + 2u * i); }
