//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// A decode step's mixture of experts with shared experts
// (engine/model/moe.go) takes two product dispatches instead of five: the
// chosen and the shared experts' gated units together (moe_gate_up), then
// the chosen experts' down products, their weighted sum, the shared
// experts' down product, their sum and the residual add (moe_down). Both
// kernels run each workgroup's sums as the kernels they stand in for do,
// so every weight of a pair must be of one type and row length and bound
// whole, and no op after them may read the products and partial sums they
// do not write.

// moeBindings is how many storage buffers moe_gate_up.wgsl and
// moe_down.wgsl bind.
const moeBindings = 8

// moeFits reports whether a fused run of n ops after the current one can
// be taken: a decode step, with that many ops left, on an adapter binding
// enough buffers.
func (c *compiler) moeFits(n int) bool {
	return c.g.Tokens == 1 && len(c.rest) >= n && c.be.limits.MaxStorageBuffersPerShaderStage >= moeBindings
}

// boundWhole reports whether w is a packed matrix {K, N} of one binding.
func (c *compiler) boundWhole(w *gpu.Tensor) bool {
	if w.Shape[2] != 1 || w.Shape[3] != 1 || !w.Contiguous() {
		return false
	}
	ps, err := c.rowParts(w, w.Type.RowBytes(w.Shape[0]), w.Shape[1])
	return err == nil && len(ps) == 1
}

// unread reports whether the activations ts, which a fused run of skip
// ops does not write, are read by no op after the run.
func (c *compiler) unread(skip int, ts ...*gpu.Tensor) bool {
	for _, t := range ts {
		if t.Root().Kind != gpu.Activation || c.readAfter(t, skip) {
			return false
		}
	}
	return true
}

// writesApart reports whether none of outs shares memory with any of
// read (a kernel binds those read-only, or as ids), and each is F32 at a
// location the kernels can index.
func (c *compiler) writesApart(outs []*gpu.Tensor, read ...*gpu.Tensor) bool {
	for _, t := range outs {
		if t.Type != tF32 {
			return false
		}
		if _, err := locOf(t); err != nil {
			return false
		}
		for _, u := range read {
			if t.Root() == u.Root() {
				return false
			}
		}
	}
	return true
}
