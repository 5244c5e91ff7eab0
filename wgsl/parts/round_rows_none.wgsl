// round_rows.wgsl's functions as no-ops, for the products built without
// it (matmul_gate_up, moe_gate_up): nothing reads their output rounded.
// Their _round builds swap round_rows in.
fn round_rows(li: u32, own: bool, v: f32, r: u32, w: u32) {}
fn round_rows_YS(li: u32, own: bool, v: f32, r: u32, w: u32) {}
