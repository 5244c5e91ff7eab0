//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// normedProductMaxK is the longest row rmsnorm_matmul_round.wgsl keeps in
// workgroup memory (xpart_q8_local's XL_MAXK).
const normedProductMaxK = 2048

// normedProduct is a decode step's RMSNorm of one row and the product
// reading it, which rmsnorm_matmul_round.wgsl computes in one dispatch.
type normedProduct struct {
	norm *gpu.RMSNorm
	mm   *gpu.MatMul
	r    *outputRounding
	dec  string
	pt   part
	lo   loc
}

// matchNormedProduct finds, at the RMSNorm o, a product read by nothing
// but the op after it (c.rest[0]) whose matvec takes its input packed in
// 8-bit blocks (Q4_0, Q8_0 weights) and which rounds its own output for
// the product after it (matmul_round): MLA's q_a_norm and q_b. A norm
// read elsewhere (the attention and feed-forward norms feed a product of
// several thousand rows, or two products) stays its own dispatch:
// there every workgroup redoing the norm would cost more than the
// dispatch it saves.
func (c *compiler) matchNormedProduct(o *gpu.RMSNorm) *normedProduct {
	if !c.be.fuses(fuseNormedProducts) || c.g.Tokens != 1 || len(c.rest) == 0 || o.Weight == nil || !(o.Eps >= 0) {
		return nil
	}
	mm, ok := c.rest[0].(*gpu.MatMul)
	if !ok || mm.In != o.Out || o.In.Shape != o.Out.Shape || o.In.Rows() != 1 {
		return nil
	}
	K, N := o.In.Shape[0], mm.W.Shape[1]
	if K%32 != 0 || K > normedProductMaxK || mm.W.Shape != gpu.Shape4(K, N) || !mm.W.Contiguous() || mm.Out.Shape != gpu.Shape4(N, 1) {
		return nil
	}
	for _, t := range []*gpu.Tensor{o.In, o.Out, o.Weight, mm.Out} {
		if t.Type != tF32 {
			return nil
		}
	}
	if o.Weight.Elements() != K || o.Out.Kind != gpu.Activation || o.In.Root() == o.Out.Root() || c.readAfter(o.Out, 2) {
		return nil
	}
	if mode, _, err := roundMode(mm.W.Type, K); err != nil || mode != packedQ8 {
		return nil
	}
	dec, err := decoder(mm.W.Type)
	if err != nil {
		return nil
	}
	parts, err := c.rowParts(mm.W, mm.W.Type.RowBytes(K), N)
	if err != nil || len(parts) != 1 {
		return nil
	}
	lo, err := locOf(mm.Out)
	if err != nil {
		return nil
	}
	// The product as lowerMatMul would see it: no epilogue, its output
	// rounded by its own workgroups for the product after it.
	rest := c.rest
	c.rest = rest[1:]
	kind, _, _ := c.epilogue(mm, o.In)
	r := c.roundingProduct(mm.Out, lo, N, 1, 1, 1, 0)
	c.rest = rest
	if kind != epiNone || r == nil {
		return nil
	}
	for _, t := range []*gpu.Tensor{o.In, o.Weight, mm.W} {
		if t.Root() == mm.Out.Root() {
			return nil
		}
	}
	return &normedProduct{norm: o, mm: mm, r: r, dec: dec, pt: parts[0], lo: lo}
}

// normedProductParams are rmsnorm_matmul_round.wgsl's words:
// matmul_round's, In being the norm's input row, and the norm's eps and
// weight.
type normedProductParams struct {
	matmulRoundParams
	Eps  float32
	Norm loc
}

// lowerNormedProduct adds the rmsnorm_matmul_round dispatch of a matched
// norm and product; the product is then done (c.fused).
func (c *compiler) lowerNormedProduct(f *normedProduct) error {
	o, mm := f.norm, f.mm
	ls, err := locsOf(o.In, o.Weight)
	if err != nil {
		return err
	}
	K, N := o.In.Shape[0], mm.W.Shape[1]
	rb := mm.W.Type.RowBytes(K)
	f.r.use(c)
	p := normedProductParams{matmulRoundParams{productParams{K, N, 1, 1, rb, ls[0], f.lo}, f.r.words(), f.pt.base}, o.Eps, ls[1]}
	c.fused = 1
	return c.dispatchPart("rmsnorm_matmul_round", f.dec, p, false, []*gpu.Tensor{mm.W, o.In, mm.Out, f.r.q, o.Weight}, f.pt, N/roundingRows)
}
