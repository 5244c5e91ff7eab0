//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// normedProductRows is the most rows normed_product takes: each of its
// workgroups (two rows) redoes the norm, which costs less than a dispatch
// for a few thousand rows (MLA's q_b) but not for an output head's
// vocabulary.
const normedProductRows = 8192

// normedRun is what normed_product takes after an RMSNorm: one product of
// its output, or two (second), or one keeping the norm's output (keep).
type normedRun struct {
	m, second *gpu.MatMul
	keep      bool
}

// normedProduct finds the products right after the RMSNorm o that
// normed_product takes with the norm: a decode step's products of the
// norm's whole output, rows no longer than a workgroup holds and not too
// many of them, and no epilogue after them. Either no other op reads the
// norm's output, with one product or two of one weight type (MLA's q_a and
// kv_a, which matmul_qkv would take) that are not a gated unit's gate and
// up; or the product's weights are F32 (a mixture of experts' router) and
// the op after it is no product pairing with it: then the kernel's first
// workgroup also writes the norm's output (keep) and its rounded copy, as
// rmsnorm or rmsnorm_round would, for the later readers. It returns nil
// for none.
//
// Without Options.SelfRounding the router's run and two products (MLA's
// q_a and kv_a, on 32-row workgroups) are taken, which bring a
// GLM-4.7-Flash layer to 12 kernels: on the H100 the pair costs nothing
// measurable, the router's about 3% of a step (doc.go).
func (c *compiler) normedProduct(o *gpu.RMSNorm) *normedRun {
	self := c.be.selfRounding && !c.be.noNormedProduct
	// default mode's: the router's run, and two products'
	plain := !c.be.selfRounding && !c.be.noRoundingProducts
	router := plain && !c.be.noNormedRouter
	pairs := plain && !c.be.noNormedPairs
	if !self && !router && !pairs || c.be.exact || c.g.Tokens != 1 || len(c.rest) == 0 || o.Weight == nil || o.Weight.Type != tF32 || o.In.Root() == o.Out.Root() {
		return nil
	}
	K := o.In.Shape[0]
	if K > headProductsK || o.In.Shape != gpu.Shape4(K, 1) || o.Out.Kind != gpu.Activation || !o.Out.Contiguous() {
		return nil
	}
	m := c.normedOperand(o, c.rest[0])
	if m == nil {
		return nil
	}
	if _, _, err := roundMode(m.W.Type, K); err != nil {
		return nil
	}
	if _, err := decoder(m.W.Type); err != nil {
		return nil
	}
	if len(c.rest) > 1 && takesEpilogue(c.rest[1], m.Out) {
		return nil
	}
	if !c.readAfter(o.Out, 2) {
		if !self {
			return nil
		}
		return &normedRun{m: m}
	}
	if n := c.normedOperand(o, c.rest[1]); (self || pairs) && n != nil && n.W.Type == m.W.Type && n.Out.Root() != m.Out.Root() && !c.readAfter(o.Out, 3) {
		if len(c.rest) > 2 && (takesEpilogue(c.rest[2], n.Out) || takesEpilogue(c.rest[2], m.Out)) {
			return nil
		}
		return &normedRun{m: m, second: n}
	}
	if m.W.Type != tF32 {
		return nil
	}
	if n, ok := c.rest[1].(*gpu.MatMul); ok && n.In == o.Out {
		return nil
	}
	return &normedRun{m: m, keep: true}
}

// normedOperand returns op when it is a product normed_product can take of
// the norm o's output, else nil.
func (c *compiler) normedOperand(o *gpu.RMSNorm, op gpu.Op) *gpu.MatMul {
	m, ok := op.(*gpu.MatMul)
	K := o.In.Shape[0]
	if !ok || m.In != o.Out || m.W.Shape[1] > normedProductRows || m.W.Shape[0] != K || !c.boundWhole(m.W) ||
		m.Out.Type != tF32 || m.Out.Shape != gpu.Shape4(m.W.Shape[1], 1) {
		return nil
	}
	return m
}

// lowerNormedProduct adds the normed_product dispatch of the RMSNorm o and
// the products r after it.
func (c *compiler) lowerNormedProduct(o *gpu.RMSNorm, r *normedRun) error {
	m, keep := r.m, r.keep
	K, N := m.W.Shape[0], m.W.Shape[1]
	dec, _ := decoder(m.W.Type)
	mode, bs, _ := roundMode(m.W.Type, K)
	ls, err := locsOf(o.In, m.Out, o.Weight, o.Out)
	if err != nil {
		return err
	}
	// the rows {K, 1} as the products index them: the token third
	for i := range 2 {
		ls[i].tokensThird()
	}
	// the norm kernel it stands in for: rmsnorm_round where a product
	// rounds the norm's output, else rmsnorm
	keepMode, keepBS, rounds := c.roundsNext(o.Out)
	threads := 64
	if rounds {
		threads = 256
	}
	var p params
	p.u(K, N, 1, 1, m.W.Type.RowBytes(K))
	p.loc(ls[0])
	p.loc(ls[1])
	p.u(epiNone)
	p.loc(loc{})
	p.loc(loc{})
	p.u(0, bs, mode)
	p.f(o.Eps)
	p.u(threads)
	p.loc(ls[2])
	c.fused = 1
	kept, rounded := m.Out, m.Out // bound, never written, without keep
	if keep {
		kept = o.Out
		if rounds {
			rounded = &gpu.Tensor{Name: o.Out.Name + ".rounded", Type: tF32, Shape: gpu.Shape4(K, 1), Kind: gpu.Activation}
			c.rounded[roundKeyOf(o.Out, keepMode, 1)] = roundedAct{rounded, roundedLoc(K, 1)}
		}
	}
	p.u(b2i(keep), b2i(keep && rounds), keepBS, keepMode)
	p.loc(ls[3])
	kernel, rows := "normed_product", wideRows
	if r.second != nil && !c.be.selfRounding && c.bigGroups() {
		// Two products (q_a and kv_a) have rows enough for workgroups of
		// 32, which redo the norm a quarter as often.
		kernel, rows = "normed_product_round", roundingRows
	}
	groupsOf := func(n int) int { return (n + rows - 1) / rows }
	second, groups := m, groupsOf(N)
	if r.second != nil {
		second = r.second
		groups += groupsOf(second.W.Shape[1])
		l2, err := locOf(second.Out)
		if err != nil {
			return err
		}
		p.u(second.W.Shape[1])
		p.loc(l2)
		c.fused = 2
	} else {
		p.u(0)
		p.loc(loc{})
	}
	return c.dispatch(kernel, dec, p, false, []*gpu.Tensor{m.W, o.In, m.Out, o.Weight, kept, rounded, second.W, second.Out}, groups)
}
