//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// headProductsK is KMAX of xr_round.wgsl: the longest row it rounds
// in workgroup memory.
const headProductsK = 2048

// headProducts reports whether the batched product o {K, N, B} of a
// decode step takes head_products, which rounds each head's input row in
// the workgroup that reads it instead of a quantize_act dispatch before:
// rows short enough, an input no earlier product has rounded already, and
// no epilogue to fuse after it.
func (c *compiler) headProducts(o *gpu.MatMul, li loc) bool {
	K, B, wt := o.W.Shape[0], o.W.Shape[2], o.W.Type
	if !c.be.selfRounding || c.be.noHeadProducts || c.be.exact || c.g.Tokens != 1 || B < 2 || K > headProductsK || (wt == tF32 && li.stride[0] == 1) {
		return false
	}
	mode, _, err := roundMode(wt, K)
	if err != nil {
		return false
	}
	if _, done := c.rounded[roundKeyOf(o.In, mode, B)]; done {
		return false
	}
	return len(c.rest) == 0 || !takesEpilogue(c.rest[0], o.Out)
}

// takesEpilogue reports whether op is what matmul.wgsl's epilogues fuse
// into the product writing out: an Add or a SwiGLU reading out.
func takesEpilogue(op gpu.Op, out *gpu.Tensor) bool {
	switch n := op.(type) {
	case *gpu.Add:
		return n.A == out || n.B == out
	case *gpu.SwiGLU:
		return n.Gate == out || n.Up == out
	}
	return false
}

// lowerHeadProducts adds the head_products dispatch of o; li and lo are
// its input's and output's locations, dec the weights' decoder.
func (c *compiler) lowerHeadProducts(o *gpu.MatMul, li, lo loc, dec string) error {
	K, N, B := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	mode, bs, err := roundMode(o.W.Type, K)
	if err != nil {
		return err
	}
	var p params
	p.u(K, N, B, 1, o.W.Type.RowBytes(K))
	p.loc(li)
	p.loc(lo)
	p.u(epiNone)
	p.loc(loc{})
	p.loc(loc{})
	p.u(0, bs, mode)
	return c.dispatch("head_products", dec, p, false, []*gpu.Tensor{o.W, o.In, o.Out}, wideGroups(N)*B)
}
