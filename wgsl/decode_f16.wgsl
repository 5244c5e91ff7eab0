//!use bytes
fn dq(rb: u32, i: u32) -> f32 { return h16(rb + 2u * i); }
