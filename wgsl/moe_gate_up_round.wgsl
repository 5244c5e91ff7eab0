// moe_gate_up.wgsl for a decode step whose down products read the gated
// units rounded: 16 matvec groups a workgroup (matvec_shape_round), whose
// 32 values of silu(G)·U it rounds as quantize_act would (round_rows,
// the chosen experts' into Y, the shared experts' into YS), a dispatch
// fewer a layer. Sums and rounding are
// those of moe_gate_up and quantize_act, bit for bit.
//!swap matvec_shape matvec_shape_round
//!swap round_rows_none round_rows
//!use moe_gate_up
//!twin Y YS
@group(0) @binding(10) var<storage, read_write> Y: array<u32>;
@group(0) @binding(11) var<storage, read_write> YS: array<u32>;
