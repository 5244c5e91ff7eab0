// tokens_shape for batch steps of sixteen sequences or more whose product
// has a large grid (ops.go tallGroups): four rows by eight tokens a
// workgroup. With a row group's token groups in neighbouring workgroups
// (matmul_tokens' grid) the 8B's batch steps of 16 and 64 ran 5-6% faster
// than with two rows; at eight sequences (one token group, half the
// workgroups of two rows) 14% slower (bench/JOURNAL.md).
const WROWS = 4u;
const TOKENS = 8u;
