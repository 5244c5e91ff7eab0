// Package synth writes synthetic models of real shapes with random
// weights, for tests and benchmarks: the tensor names, shapes and metadata
// keys of llama, qwen2, qwen3, qwen3moe, olmoe and deepseek2 (MLA, with or without
// MoE) files as llama.cpp's converters write them, filled with seeded
// random values of realistic scale, so a 30B-parameter layout can be
// loaded, timed and profiled without downloading the real weights.
//
// A model is described by a Config (presets.go holds the named shapes);
// Plan lists its tensors, Params counts them, and Write streams the file
// through gguf.Writer, generating and quantizing each tensor chunk by
// chunk so memory stays small whatever the model's size.
package synth
