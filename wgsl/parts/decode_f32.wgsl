// F32 weights: dq(rb, i) is element i of the row at byte rb; a block is
// one value.
const BLOCK = 1u;
fn dq(rb: u32, i: u32) -> f32 { return bitcast<f32>(W[(rb >> 2u) + i]); }
