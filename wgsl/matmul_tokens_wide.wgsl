// matmul_tokens.wgsl for batch steps of eight sequences or more: eight
// tokens a workgroup (tokens_shape_wide). Each token's sums are those of
// matmul.wgsl for it alone, bit for bit, as in matmul_tokens.
//!swap tokens_shape tokens_shape_wide
//!use matmul_tokens
