// tokens_shape for batch steps of sixteen sequences or more: four rows by
// eight tokens a workgroup. With a row group's two token groups in
// neighbouring workgroups (matmul_tokens' grid) the 8B's batch step of 16
// ran 4% faster than two rows and that of 64 6% faster; at eight
// sequences (one token group, half the workgroups of two rows) it ran 14%
// slower, which tokens_shape_wide keeps (bench/JOURNAL.md).
const WROWS = 4u;
const TOKENS = 8u;
