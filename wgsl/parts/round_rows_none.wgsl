// round_rows.wgsl's functions as no-ops, for the products built without
// it (matmul_gate_up, moe_gate_up): nothing reads their output rounded.
// Their _round builds swap round_rows in.
struct RoundRows { mode: u32, off: u32, stride: u32, k: u32, rows: u32 }
fn round_rows(li: u32, own: bool, v: f32, r: u32, w: RoundRows) {}
fn round_rows_YS(li: u32, own: bool, v: f32, r: u32, w: RoundRows) {}
