// Package sample turns a step's logits into the next token and decides when
// generation stops.
//
// A Sampler applies llama.cpp's default chain, in this order:
//
//	penalties -> top-k -> top-p -> min-p -> temperature -> draw
//
// Penalties (repeat, presence, frequency) look at the last RepeatLastN tokens
// of the history the caller passes in. Top-p and min-p therefore judge tokens
// by their temperature-1 probabilities, and temperature only reshapes what
// survived the filters. A temperature <= 0 (or top-k = 1) means greedy: the
// highest penalized logit wins, ties going to the lowest token id.
//
// Draws come from the Sampler's own PCG generator seeded by Options.Seed, and
// the exponentials and the one logarithm are the package's own portable code
// with FMA fusion ruled out (math.Exp and math.Log are assembly on some
// platforms only), so a seed reproduces a run bit for bit on every platform
// Go targets, wasm included.
//
// Backends that read back only the top candidates of a step instead of all
// logits use SampleCandidates; CandidatesNeeded says how many make it exact.
//
// Logits are never modified: the sampler works on its own buffers. NaN logits
// count as -Inf (never chosen); +Inf logits, when present, share all the
// probability equally.
//
// StopTokens and StopStrings are the two ways generation ends besides a
// length limit: a token id in a set (EOS, EOT ...) or a string in the
// generated text, which StopStrings finds across token boundaries while
// holding back any text that might still turn into a stop string.
package sample
