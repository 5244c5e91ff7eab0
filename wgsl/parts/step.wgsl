// The step's position, written before every run.
struct Step { pos: u32, pad0: u32, pad1: u32, pad2: u32 }
@group(0) @binding(1) var<uniform> S: Step;
