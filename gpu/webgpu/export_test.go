//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// KeepKernels returns a program running only the kernels of p that keep
// accepts, by kernel file name and workgroup count: the benchmarks time a
// decode step with classes of kernels left out to see where its time goes.
// The result shares p's buffers; release only p.
func KeepKernels(p gpu.Program, keep func(name string, groups int) bool) gpu.Program {
	q := *p.(*program)
	q.kernels, q.cache = nil, encodeCache{}
	for _, k := range p.(*program).kernels {
		if keep(k.name, int(k.grid[0]*k.grid[1]*k.grid[2])) {
			q.kernels = append(q.kernels, k)
		}
	}
	return &q
}

// HeadProducts sets whether be compiles batched products into
// head_products where it can (on) or always into a quantize_act and a
// matmul dispatch.
func HeadProducts(be gpu.Backend, on bool) { be.(*Backend).noHeadProducts = !on }

// RoundingProducts sets whether be compiles decode products whose output
// the next product reads rounded into matmul_round where it can (on) or
// always into a matmul and a quantize_act dispatch.
func RoundingProducts(be gpu.Backend, on bool) { be.(*Backend).noRoundingProducts = !on }

// NormedPairs sets whether be, without Options.SelfRounding, compiles a
// norm and two products of its output into normed_product.
func NormedPairs(be gpu.Backend, on bool) { be.(*Backend).noNormedPairs = !on }

// NormedRouter sets whether be, without Options.SelfRounding, compiles a
// norm and the router's product of its output into normed_product.
func NormedRouter(be gpu.Backend, on bool) { be.(*Backend).noNormedRouter = !on }

// AttentionHeads sets whether be compiles a prefill's attention into
// attention_heads where it can (on) or always into attention.
func AttentionHeads(be gpu.Backend, on bool) { be.(*Backend).noAttentionHeads = !on }

// UploadFlush sets the weight bytes be lets wait for a submission,
// PendingUpload says how many wait now, and UploadSubmits how many
// submissions of them there have been.
func UploadFlush(be gpu.Backend, n int) { be.(*Backend).uploadFlush = n }
func PendingUpload(be gpu.Backend) int  { return be.(*Backend).pendingUpload }
func UploadSubmits(be gpu.Backend) int  { return be.(*Backend).uploadSubmits }

// SelfRoundingKernels sets which of Options.SelfRounding's kernel
// families be compiles: normed_product, head_products, moe_down.
func SelfRoundingKernels(be gpu.Backend, normed, head, moe bool) {
	b := be.(*Backend)
	b.noNormedProduct, b.noHeadProducts, b.noMoEDown = !normed, !head, !moe
}

// RoundMode is quantize_act's mode and block size for the inputs of
// products with weights of type wt and rows of K.
func RoundMode(wt gpu.Type, K int) (mode, bs int, err error) { return roundMode(wt, K) }
