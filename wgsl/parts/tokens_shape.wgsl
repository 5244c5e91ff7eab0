// The workgroup of matmul_tokens: WROWS weight rows by TOKENS tokens of a
// decode batch, WG threads. Four tokens for batches of fewer than eight
// sequences (buckets of two and four: a workgroup of eight would compute
// padding); matmul_tokens_wide swaps in tokens_shape_wide for eight to
// fifteen, matmul_tokens_tall tokens_shape_tall from sixteen on.
const WROWS = 2u;
const TOKENS = 4u;
