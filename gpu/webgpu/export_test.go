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

// RoundingProducts sets whether be compiles decode products whose output
// the next product reads rounded into matmul_round and its kin where it
// can (on) or always into a product and a quantize_act dispatch.
func RoundingProducts(be gpu.Backend, on bool) { be.(*Backend).set(fuseRoundingProducts, on) }

// AttentionHeads sets whether be compiles a prefill's attention into
// attention_heads where it can (on) or always into attention.
func AttentionHeads(be gpu.Backend, on bool) { be.(*Backend).set(fuseAttentionHeads, on) }

func (b *Backend) set(f fusion, on bool) {
	if on {
		b.off &^= f
	} else {
		b.off |= f
	}
}

// UploadFlush sets the weight bytes be lets wait for a submission,
// PendingUpload says how many wait now, and UploadSubmits how many
// submissions of them there have been.
func UploadFlush(be gpu.Backend, n int) { be.(*Backend).uploadFlush = n }
func PendingUpload(be gpu.Backend) int  { return be.(*Backend).pendingUpload }
func UploadSubmits(be gpu.Backend) int  { return be.(*Backend).uploadSubmits }

// RoundMode is quantize_act's mode and block size for the inputs of
// products with weights of type wt and rows of K.
func RoundMode(wt gpu.Type, K int) (mode, bs int, err error) { return roundMode(wt, K) }

// TiledFrom is the fewest tokens whose products take the tiled kernel.
const TiledFrom = tiledFrom
