// Package metal runs ember's kernel interface (package gpu) on Apple's
// Metal, with the MSL kernels of msl/, each the twin of a WGSL kernel of the
// WebGPU backend. Metal.framework is opened at run time and spoken to in
// Objective-C messages through purego (device_darwin.go): no cgo, so the
// backend cross-compiles from any machine (CGO_ENABLED=0 GOOS=darwin). On
// other systems Open says Metal is only on macOS.
//
// Everything above the device (device.go: buffers, pipelines, one command
// buffer a run) is plain Go that builds everywhere, and the tests run it on
// Linux against an emulated device (emu_test.go): each kernel, compiled as
// C++17 against a shim of the Metal standard library
// (testdata/shim/metal_stdlib) whose runtime runs a threadgroup's threads
// as fibers that meet at threadgroup_barrier and the SIMD-group
// reductions, becomes a shared object that purego loads. So the lowering
// of graphs, the bindings, the parameter blocks and the kernels themselves
// are tested against the CPU backend by the op suite and by whole models
// without a Mac; the darwin tests (metal_darwin_test.go) run the same
// suites on Metal itself.
//
// A graph is lowered one kernel an op, as the WebGPU backend lowers it into
// the twins of these kernels before its fusions: products round their
// input as the CPU backend does (quantize_act) and read weights in their
// file layout, decoding blocks in registers, for every weight type WebGPU
// takes: a matvec per token for decode and small batches (matmul,
// matmul_id for experts), and from 16 tokens on tiles of 64 rows by 64
// tokens (matmul_tiled), multiplied with SIMD-group matrices where the
// device has them. Decode attention takes two passes (attention_scores
// splits each head's cache rows over threadgroups, attention_values takes
// the softmax and sums the values); prefill keeps the one-pass kernel
// (attention). A kernel's parameters are a Go struct declared to it as an
// MSL struct (params.go). A run is one compute encoder of one command
// buffer, the step's position (or every token's place) passed with
// setBytes, and is not waited for: reads and writes of host buffers wait,
// and on Apple's unified memory read the buffer itself.
//
// The device's features decide the kernels' builds: SIMD-group reductions
// and matrices on Apple7 and later (M1 on) where the device builds a
// pipeline of a probe of each, else reductions through threadgroup memory
// and scalar tiles, as on a hosted macOS runner's paravirtual GPU
// (Options.NoSIMD asks for the latter anywhere).
//
// Weights are not copied: each is wrapped where it lies (the mapped model
// file) with newBufferWithBytesNoCopy over its whole pages, bound at its
// offset in them, and split into segments of whole rows (or experts) where
// it exceeds the device's largest buffer, each dispatch of a product then
// taking the rows of one segment, as WebGPU splits weights past its
// binding limit.
package metal
