// Package cpu is ember's Go backend: the reference every other backend is
// checked against and the default where no GPU is usable.
//
// Compile lowers a graph into a flat list of kernels (closures over
// pre-resolved memory: every shape, stride and work split is decided once),
// plans activation memory into one arena with buffers of non-overlapping
// lifetimes sharing bytes, and inserts a barrier between two kernels only
// where one touches memory the other wrote (or reads what it overwrites).
// Run hands the kernel list to one persistent pool of workers that walk it
// together, so a replay costs one wake-up and a barrier per dependent pair
// of kernels, not a goroutine per op.
//
// Matrix products on quantized weights quantize the activations to 8 bits
// per block (engine/quant's activation formats) and take integer dot
// products against the weight blocks, as llama.cpp's CPU backend does; Q4_0
// matrices are stored sixteen rows interleaved at load, as llama.cpp
// repacks them (weights_interleaved.go).
package cpu
