// Package grammar constrains generation to a formal language: a grammar
// in llama.cpp's GBNF notation (Parse), or a JSON Schema turned into one
// (FromJSONSchema, JSONObject), decides which tokens may come next, and
// the sampler masks every other token out.
//
// The grammar works on bytes, not characters: every character class is
// compiled into the UTF-8 byte sequences of its characters, so a token
// that ends inside a character (byte-level BPE splits them, SentencePiece
// has byte tokens) is judged by the bytes it does write, with no special
// case. Parsing is a pushdown automaton whose stacks are positions in the
// grammar's rules, as in llama.cpp (facts from its grammar and
// json-schema-to-grammar; the code is ember's own): a set of stacks is the
// parser's state after some bytes, a byte keeps the stacks whose next
// element takes it, and a stack ending in a rule reference expands into
// one stack per alternative of the rule. Stacks are interned, so a set of
// stacks is a small sorted list of ids, and the sets met become the states
// of a lazily built DFA: a state's transition on each byte and its token
// mask are computed once and reused, inside a string the same state comes
// back after every character.
//
// A state's token mask is found by walking the vocabulary's pieces in
// sorted order, reusing the DFA states of the prefix each piece shares
// with the one before (and skipping, at the cost of one comparison, every
// piece that shares a prefix already rejected). Tokens that write nothing
// (control tokens) are never allowed; end-of-generation tokens are allowed
// exactly where the grammar may end.
//
// Left-recursive grammars are refused when built, as in llama.cpp.
// Repetition is rewritten into right recursion, which the stacks run in
// constant depth (a reference that ends an alternative replaces its frame
// instead of stacking a return to it).
package grammar
