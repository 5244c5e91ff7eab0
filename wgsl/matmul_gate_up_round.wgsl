// matmul_gate_up.wgsl for a decode step whose down product reads the
// SwiGLU rounded: 16 matvec groups a workgroup (matvec_shape_round), whose
// 32 values of silu(G)·U it rounds as quantize_act would (round_rows into
// Y), a dispatch fewer a layer. Sums and rounding are
// those of matmul_gate_up and quantize_act, bit for bit.
//!swap matvec_shape matvec_shape_round
//!swap round_rows_none round_rows
//!use matmul_gate_up
@group(0) @binding(8) var<storage, read_write> Y: array<u32>;
