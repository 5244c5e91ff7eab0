// Package webgpu runs ember's kernel interface (package gpu) on WebGPU:
// natively through wgpu-native (Vulkan, Metal, D3D12) and in the browser
// (GOOS=js) through its WebGPU; platform_native.go and platform_js.go hold
// what differs, chiefly how the code waits for the device. Kernels are
// WGSL from the top-level wgsl folder. A graph is compiled once into
// pipelines, bind groups and buffers; a step is one command encoder, one
// compute pass and one submission, with the position written into a small
// uniform buffer beforehand; the submission ends by copying the small
// results the graph writes (the chosen token, top-k candidates, logits)
// into their mapped-read staging buffers, so reading one back needs no
// submission of its own.
//
// Activations and caches are f32/f16 storage buffers addressed through
// element offsets and strides passed as uniforms, so views of any offset
// need no copies and no aligned binding offsets. Weights stay in their file
// layout (quantized blocks) and are decoded in the kernels from 32-bit
// loads. A product of one token is a matvec, reading each weight once; a
// product of many (prefill) is tiled (ops_tiled.go), each weight read and
// decoded once per tile of tokens into workgroup memory.
//
// The kernels add in parallel, in other orders than the CPU backend, so
// their results differ from the CPU's in the last bits; the op suite holds
// each op to a normalized error bound and the model tests hold whole
// models to the CPU's next-token distributions (mean KL divergence and
// top-1 agreement), under the bound llama.cpp's own CPU builds keep from
// each other.
//
// A dispatch costs several microseconds on the device whatever it does (a
// step's kernels depend on each other, so each waits for the last), so the
// compiler folds ops into their neighbours' kernels: an RMSNorm also
// writes the rounded copy the products after it read, a product also does
// the residual Add or the SwiGLU right after it (or, for a shared expert's
// down product, both Adds after it), a decode step's query, key and value
// products are one dispatch (matmul_qkv, the values' weights possibly of a
// second type), the gate and up products of weights of one type and shape
// are one dispatch with their SwiGLU, for dense layers and for the chosen
// experts (matmul_id_gate_up), the experts' down products also take their
// weighted sum and the residual add (matmul_id_weighted), and an
// activation rounding also rounds the next product's input when that is
// ready and rounds alike (the shared expert's). A decode product whose
// output the next product reads rounded in 32-value blocks rounds it
// itself, each workgroup taking 32 rows (matmul_round,
// matmul_gate_up_round, moe_gate_up_round: ops_rounding_product.go); the
// experts' down products then take the shared expert's and both adds
// (moe_down_rounded). Every fused kernel gives the results of the
// dispatches it replaces bit for bit, which the fusion tests check.
//
// A decode batch of several sequences reads each weight once for several
// of its tokens, each token's sums still those of its step alone (the
// lone matvec's lane partials and reduction), so that a sequence's text
// does not depend on its company: matmul_tokens for the dense products,
// and for the products by expert id, after expert_groups lists the batch's
// (slot, token) pairs by chosen expert, matmul_id_tokens (and its
// gate-and-up form) over runs of one expert's pairs; their weighted sum
// is weighted_sum's, which the lone step's fused down product keeps.
//
// The host side of a step (encoding a few hundred dispatches) overlaps the
// device's work when the engine chains greedy steps: CopyBuffer feeds one
// step's chosen token to the next on the device (copy.go), and its copies
// ride in the next run's submission. In the browser the pass is encoded by
// one JavaScript call a step (encode_js.go) rather than three crossings
// from Go a kernel. Weights are uploaded as they load, at most
// uploadFlushBytes staged at a time (upload.go).
package webgpu

// Options configure the backend.
type Options struct {
	// ForceFallback asks for the adapter's software fallback (tests).
	ForceFallback bool
	// MaxBinding, when set, caps the bytes a storage binding takes below
	// the adapter's limit, so tests split small tensors across bindings
	// as browsers' 128 MiB bindings split large ones.
	MaxBinding uint64
	// NoSubgroups builds the kernels without subgroup operations even where
	// the adapter has them, as on adapters without (tests of that path).
	NoSubgroups bool
}
