// Package tokenizer turns text into token ids and back for the vocabularies
// GGUF files carry in their tokenizer.* keys, with the same results as
// llama.cpp's tokenizer (the reference the engine is tested against).
//
// Two model types are supported:
//
//   - "gpt2": byte-level BPE with ranked merges and one of llama.cpp's
//     pre-tokenizer presets (tokenizer.ggml.pre: llama3, qwen2, qwen35,
//     deepseek-llm, deepseek-coder, gpt-2, default, glm4, olmo, youtu and
//     their aliases). The presets are hand-written scanners over Unicode
//     categories that implement llama.cpp's split regexes exactly, including
//     the quirks of its std::regex fallback (category "collapsing"), so no
//     regular-expression engine with lookahead is needed.
//   - "llama": SentencePiece with scores, byte fallback (<0xXX> tokens) and
//     the leading-space prefix.
//
// Special (control and user-defined) tokens are recognised in text before
// either algorithm runs, as llama.cpp does. Decoding offers single pieces,
// llama.cpp's detokenizer, and a streaming Decoder that only ever returns
// complete UTF-8.
//
// Every algorithm here is linear or n·log n in the input: merges use a heap
// over a linked list of symbols, and the scanners never rescan a run.
package tokenizer
