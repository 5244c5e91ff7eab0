// matmul_tokens.wgsl for batch steps of sixteen sequences or more: four
// rows by eight tokens a workgroup (tokens_shape_tall). Each token's sums
// are those of matmul.wgsl for it alone, bit for bit, as in matmul_tokens.
//!swap tokens_shape tokens_shape_tall
//!use matmul_tokens
