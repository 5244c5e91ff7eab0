// tokens_shape for batch steps of eight to fifteen sequences: eight tokens
// a workgroup read each weight part once for twice the tokens, and at 16
// and 64 sequences the 8B's batch step ran 8% faster than at four
// (bench/JOURNAL.md). From sixteen on tokens_shape_tall takes four rows.
const WROWS = 2u;
const TOKENS = 8u;
