//go:build cgo || js

package webgpu

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// Exact attention (Options.Exact): three passes that take gpu/cpu's
// arithmetic one step at a time (attention_exact.wgsl). The fast kernels
// split the sums across threads and round the softmax differently; a
// last-bit difference in one weight then moves the F16 rounding of the
// next layer's inputs, and the CPU and the GPU drift apart.

// exactLanes is the value sums' accumulators (attention_exact.wgsl's
// lanes): ggml's single-token product keeps 64, tinyBLAS (a batch) 16.
// attention_exact_values gives each its own thread.
func exactLanes(T int) int {
	if T > 1 {
		return 16
	}
	return 64
}

func (c *compiler) lowerAttentionExact(o *gpu.Attention) error {
	if err := c.checkAttention(o); err != nil {
		return err
	}
	c.p.needCtx(o.CacheK.Shape[1])
	ls, err := locsOf(o.Q, o.Out)
	if err != nil {
		return err
	}
	DK, H, T := o.Q.Shape[0], o.Q.Shape[1], o.Q.Shape[2]
	cv := o.CacheV
	if o.VFromK {
		cv = o.CacheK
	}
	// Score rows as long as the fast kernels' (they share the scratch),
	// for as many tokens as fit in it (see scores); the other tokens go
	// in further dispatches.
	chunks := scoreChunks(o)
	ctx := chunks * scoreRows
	group := min(T, int(min(c.be.limits.MaxStorageBufferBindingSize, 64<<20)/uint64(4*H*ctx)))
	if group < 1 {
		return fmt.Errorf("exact attention: the scores of %d heads over %d positions do not fit a binding", H, ctx)
	}
	sc := c.scores(chunks, H, group)
	dec := cacheDecoder(o)
	for t0 := 0; t0 < T; t0 += group {
		tg := min(group, T-t0)
		var p params
		c.attentionWords(&p, o, DK, H, T)
		p.loc(ls[0])
		p.loc(ls[1])
		p.u(ctx, t0, tg, 0, b2i(o.CacheK.Type == tF16))
		if err := c.dispatch("attention_exact_scores", dec, p, true, []*gpu.Tensor{o.Q, o.CacheK, sc}, (ctx*H*tg+63)/64); err != nil {
			return err
		}
		if err := c.dispatch("attention_exact_softmax", "", p, true, []*gpu.Tensor{sc}, H*tg); err != nil {
			return err
		}
		if err := c.dispatch("attention_exact_values", dec, p, true, []*gpu.Tensor{sc, cv, o.Out}, (o.DV*H*tg*exactLanes(T)+63)/64); err != nil {
			return err
		}
	}
	return nil
}
