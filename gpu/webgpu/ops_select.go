//go:build cgo || js

package webgpu

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// routeParams are route.wgsl's words: E experts choosing K, the gating,
// whether a selection bias is bound, whether the chosen weights are
// normalised, their scale.
type routeParams struct {
	E, K, Gating         int
	HasBias, Norm        bool
	Scale                float32
	Logits, IDs, Weights loc
}

func (c *compiler) lowerRoute(o *gpu.Route) error {
	if err := gpu.CheckRoute(o); err != nil {
		return err
	}
	E, T, K := o.Logits.Shape[0], o.Logits.Shape[1], o.K
	if E > 512 || K > 32 {
		return fmt.Errorf("%d experts choosing %d: the WebGPU router takes at most 512 and 32", E, K)
	}
	bias := o.Logits
	if o.Bias != nil {
		if o.Bias.Kind == gpu.View || !o.Bias.Contiguous() {
			return fmt.Errorf("Bias %s must be packed", o.Bias.Name)
		}
		bias = o.Bias
	}
	ls, err := locsOf(o.Logits, o.IDs, o.Weights)
	if err != nil {
		return err
	}
	p := routeParams{E: E, K: K, Gating: int(o.Gating), HasBias: o.Bias != nil, Norm: o.Norm, Scale: o.Scale, Logits: ls[0], IDs: ls[1], Weights: ls[2]}
	return c.dispatch("route", "", p, false, []*gpu.Tensor{o.Logits, bias, o.IDs, o.Weights}, T)
}

// weightedSumParams are weighted_sum.wgsl's words: N values of S slots of
// T tokens, the residual add it may take, and a word of zero (nofuse).
type weightedSumParams struct {
	N, S, T          int
	In, Weights, Out loc
	residualParams
	Zero int
}

// residualParams are the words of a residual add fused after a sum:
// F = sum + E, when Add.
type residualParams struct {
	Add  bool
	E, F loc
}

func (c *compiler) lowerWeightedSum(o *gpu.WeightedSum) error {
	for _, e := range []error{wantType(o.In, "In", tF32), wantType(o.Weights, "Weights", tF32), wantType(o.Out, "Out", tF32)} {
		if e != nil {
			return e
		}
	}
	N, S, T := o.In.Shape[0], o.In.Shape[1], o.In.Shape[2]
	if o.In.Shape[3] != 1 || o.Weights.Shape != gpu.Shape4(S, T) || o.Out.Shape != gpu.Shape4(N, T) {
		return fmt.Errorf("In %v, Weights %v, Out %v: want {N, S, T}, {S, T}, {N, T}", o.In.Shape, o.Weights.Shape, o.Out.Shape)
	}
	ls, err := locsOf(o.In, o.Weights, o.Out)
	if err != nil {
		return err
	}
	p := weightedSumParams{N: N, S: S, T: T, In: ls[0], Weights: ls[1], Out: ls[2]}
	other, out, err := c.residual(&p.residualParams, 0, o.Out, o.In, o.Weights)
	if err != nil {
		return err
	}
	return c.dispatch("weighted_sum", "", p, false, []*gpu.Tensor{o.In, o.Weights, o.Out, other, out}, groupsOf64(N*T))
}

// residual fuses the Add that addAfter(i, sum, reads...) finds after a
// weighted sum: it sets the kernel's add words p and counts the ops
// fused, and returns the tensors to bind for them. Without an add, both
// are sum, bound and never touched.
func (c *compiler) residual(p *residualParams, i int, sum *gpu.Tensor, reads ...*gpu.Tensor) (other, out *gpu.Tensor, err error) {
	other, out = sum, sum
	c.fused = i
	e, f := c.addAfter(i, sum, reads...)
	if e != nil {
		other, out = e, f
		c.fused++
	}
	lx, err := locsOf(other, out)
	if err != nil {
		return nil, nil, err
	}
	*p = residualParams{Add: e != nil, E: lx[0], F: lx[1]}
	return other, out, nil
}

// addAfter matches an Add as op i of c.rest (right after the op writing
// t) that adds t to another tensor of t's shape (the residual add after
// the experts' sum), for the op to fuse: it returns the other operand and
// the Add's output, or nils. Neither may share memory with t or with
// reads, the op's inputs.
func (c *compiler) addAfter(i int, t *gpu.Tensor, reads ...*gpu.Tensor) (other, out *gpu.Tensor) {
	if len(c.rest) <= i {
		return nil, nil
	}
	a, ok := c.rest[i].(*gpu.Add)
	if !ok || a.Out == nil || (a.A == t) == (a.B == t) {
		return nil, nil
	}
	other = a.A
	if other == t {
		other = a.B
	}
	for _, x := range []*gpu.Tensor{other, a.Out} {
		if x == nil || x.Type != tF32 || x.Shape != t.Shape {
			return nil, nil
		}
		for _, r := range append(reads, t) {
			if x.Root() == r.Root() {
				return nil, nil
			}
		}
		if _, err := locOf(x); err != nil {
			return nil, nil
		}
	}
	return other, a.Out
}

// expertParams are the words parts/expert_rows.wgsl reads, with
// parts/matvec.wgsl's: the products by expert id of S slots of T tokens,
// rows of K values (RowBytes bytes each) and N rows an expert, Experts
// experts, InRows rows of In a token (S, or 1 where the slots share one),
// the chosen ids.
type expertParams struct {
	K, N, S, T, RowBytes int
	Experts, InRows      int
	In, IDs              loc
}

// matmulIDParams are matmul_id.wgsl's words: the output, and the experts
// R0..R1 of this dispatch's binding of W, from its byte Base, Last for the
// dispatch that also writes the zeros of ids out of range.
type matmulIDParams struct {
	expertParams
	Out          loc
	R0, R1, Base int
	Last         bool
}

// expertGateUpParams are matmul_id_gate_up.wgsl's words: Out the gates'
// products, U the ups', F the gated units; ExpertRows the rows from one
// expert's first to the next's in both weights, UpRow the up rows' first
// within an expert's (expertPair).
type expertGateUpParams struct {
	expertParams
	Out, U, F         loc
	ExpertRows, UpRow int
}

// expertSumParams are matmul_id_weighted.wgsl's words: Out the products,
// the routing weights, their weighted Sum, and the residual add after it.
type expertSumParams struct {
	expertParams
	Out, Weights, Sum loc
	residualParams
	Zero int
}

func (c *compiler) lowerMatMulID(o *gpu.MatMulID) error {
	dec, err := decoder(o.W.Type)
	if err != nil {
		return err
	}
	S, T, Sin, err := gpu.CheckMatMulID(o)
	if err != nil {
		return err
	}
	K, N, E := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	ls, err := locsOf(o.In, o.IDs, o.Out)
	if err != nil {
		return err
	}
	li, lid, lo := ls[0], ls[1], ls[2]
	c.checkIDs(o.IDs, E, "expert", "there are %d experts")
	rb := o.W.Type.RowBytes(K)
	parts, err := c.rowParts(o.W, rb*N, E)
	if err != nil {
		return err
	}
	if done, err := c.lowerMatMulIDTiled(o, dec, K, N, E, S, T, Sin, lid, lo); done || err != nil {
		return err
	}
	in, li, err := c.roundActivations(o.In, li, o.W.Type, K, Sin, T, false)
	if err != nil {
		return err
	}
	if m, shared := c.matchMoEDownRounded(o, in, len(parts)); m != nil {
		return c.lowerMoEDownRounded(o, m, in, li, lid, shared, dec)
	}
	if m := c.matchMoEGateUp(o, in, len(parts)); m != nil {
		return c.lowerMoEGateUp(o, m, in, li, lid, dec)
	}
	if done, err := c.lowerMatMulIDTokens(o, in, dec, li, lid, lo, len(parts)); done || err != nil {
		return err
	}
	if pr := c.expertGateUp(o, in, len(parts)); pr != nil {
		ls, err := locsOf(pr.gate, pr.up, pr.sw.Out)
		if err != nil {
			return err
		}
		p := expertGateUpParams{expertParams{K, pr.n, S, T, rb, E, Sin, li, lid}, ls[0], ls[1], ls[2], pr.expertRows, pr.upRow}
		c.fused = pr.ops
		return c.dispatch("matmul_id_gate_up", dec, p, false, []*gpu.Tensor{o.W, in, o.IDs, pr.gate, pr.up, pr.sw.Out, pr.v}, rowGroups(pr.n)*S*T)
	}
	if ws := c.expertSum(o, in, len(parts)); ws != nil {
		return c.lowerMatMulIDWeighted(o, ws, in, dec, li, lid, lo)
	}
	for _, pt := range parts {
		p := matmulIDParams{expertParams{K, N, S, T, rb, E, Sin, li, lid}, lo, pt.r0, pt.r1, pt.base, pt.last}
		if err := c.dispatchPart("matmul_id", dec, p, false, []*gpu.Tensor{o.W, in, o.IDs, o.Out}, pt, rowGroups(N)*S*T); err != nil {
			return err
		}
	}
	return nil
}

// topKMax is the largest K of the WebGPU top-k: the candidates it sorts
// fit in 16 KiB of workgroup memory (wgsl/topk.wgsl's CAP).
const topKMax = 1024

// topKParams are topk.wgsl's words: the K largest of rows of N values,
// taken in CHUNKS chunks of CHUNK values (the last the rest), the indices
// of a second pass MAPPED through the first's (Map).
type topKParams struct {
	N, K, Chunk, Chunks int
	Mapped              bool
	In, IDs, Vals, Map  loc
}

// topKChunk is how many values a workgroup of a long row's first top-k
// pass takes: a few sweeps of a chunk cost about what the first pass's
// candidates cost the second.
const topKChunk = 4096

func (c *compiler) lowerTopK(o *gpu.TopK) error {
	if err := gpu.CheckTopK(o); err != nil {
		return err
	}
	V, T, K := o.In.Shape[0], o.In.Shape[1], o.K
	if K > topKMax {
		return fmt.Errorf("top %d of %d values: the WebGPU top-k takes at most K = %d", K, V, topKMax)
	}
	ls, err := locsOf(o.In, o.IDs, o.Vals)
	if err != nil {
		return err
	}
	// Every chunk holds at least K values.
	chunks := V / max(topKChunk, K)
	if chunks < 2 {
		p := topKParams{N: V, K: K, Chunk: V, Chunks: 1, In: ls[0], IDs: ls[1], Vals: ls[2], Map: ls[0]}
		return c.dispatch("topk", "", p, false, []*gpu.Tensor{o.In, o.IDs, o.Vals, o.In}, T)
	}
	n := chunks * K
	ids := gpu.NewActivation(o.IDs.Name+".chunks", gguf.I32, gpu.Shape4(n, T))
	vals := gpu.NewActivation(o.Vals.Name+".chunks", tF32, gpu.Shape4(n, T))
	cs, err := locsOf(ids, vals)
	if err != nil {
		return err
	}
	p := topKParams{N: V, K: K, Chunk: V / chunks, Chunks: chunks, In: ls[0], IDs: cs[0], Vals: cs[1], Map: ls[0]}
	if err := c.dispatch("topk", "", p, false, []*gpu.Tensor{o.In, ids, vals, o.In}, T*chunks); err != nil {
		return err
	}
	p = topKParams{N: n, K: K, Chunk: n, Chunks: 1, Mapped: true, In: cs[1], IDs: ls[1], Vals: ls[2], Map: cs[0]}
	return c.dispatch("topk", "", p, false, []*gpu.Tensor{vals, o.IDs, o.Vals, ids}, T)
}

// copyParams are copy.wgsl's words: N elements, In's and Out's shapes and
// locations, which of them is F16.
type copyParams struct {
	N               int
	InShape         [4]int
	In              loc
	OutShape        [4]int
	Out             loc
	InHalf, OutHalf bool
}

func (c *compiler) lowerCopy(o *gpu.Copy) error {
	if err := wantType(o.In, "In", tF32, tF16); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tF32, tF16); err != nil {
		return err
	}
	n := o.In.Elements()
	if o.Out.Elements() != n {
		return fmt.Errorf("In %v and Out %v hold different numbers of elements", o.In.Shape, o.Out.Shape)
	}
	ls, err := locsOf(o.In, o.Out)
	if err != nil {
		return err
	}
	li, lo := ls[0], ls[1]
	if o.Out.Type == tF16 && (!o.Out.Contiguous() || lo.off%2 != 0) {
		return fmt.Errorf("an F16 Out (%s) must be packed and start at an even element on WebGPU", o.Out.Name)
	}
	p := copyParams{N: n, InShape: o.In.Shape, In: li, OutShape: o.Out.Shape, Out: lo, InHalf: o.In.Type == tF16, OutHalf: o.Out.Type == tF16}
	return c.dispatch("copy", "", p, false, []*gpu.Tensor{o.In, o.Out}, groupsOf64((n+1)/2))
}

// expertPair is the chosen experts' gate and up products and the SwiGLU
// of the two, which matmul_id_gate_up (and moe_gate_up) computes in one
// dispatch: two products of weights of one type and shape, or one product
// of a merged stack {K, 2F, E} (llama.cpp's ffn_gate_up_exps: each
// expert's F gate rows, then its F up rows) whose output the SwiGLU reads
// as two halves.
type expertPair struct {
	sw *gpu.SwiGLU
	// v is the up rows' weights (the gates' own for a merged stack), n the
	// rows of each product, expertRows the rows from one expert's first
	// to the next's and upRow the up rows' first within an expert's.
	v                    *gpu.Tensor
	n, expertRows, upRow int
	// gate and up are where the products go: their own outputs, or the
	// halves of the merged product's.
	gate, up *gpu.Tensor
	// ops is how many ops after the gate product the pair takes.
	ops int
}

// expertGateUp matches the experts' gate product o followed by their up
// product (same input, ids, weight type and shape) and the SwiGLU of the
// two with o as the gate, or o of a merged stack followed by the SwiGLU
// of its halves; it returns nil for neither. in is o's (rounded) input;
// parts, the bindings o's weights need: they must be bound whole.
func (c *compiler) expertGateUp(o *gpu.MatMulID, in *gpu.Tensor, parts int) *expertPair {
	if len(c.rest) < 1 || parts != 1 {
		return nil
	}
	p := c.mergedGateUp(o)
	if p == nil {
		p = c.splitGateUp(o)
	}
	if p == nil {
		return nil
	}
	// Each output has its own writable binding while the weights and the
	// input are read and the ids bound: none may share memory with those,
	// nor with another output (but the halves of one).
	fixed := []*gpu.Tensor{o.W, p.v, o.In, in, o.IDs}
	outs := []*gpu.Tensor{p.gate, p.up, p.sw.Out}
	want := gpu.Shape4(p.n, o.Out.Shape[1], o.Out.Shape[2])
	for i, t := range outs {
		if t.Type != tF32 || t.Shape != want {
			return nil
		}
		if _, err := locOf(t); err != nil {
			return nil
		}
		for _, u := range append(fixed, outs[:i]...) {
			if t.Root() == u.Root() && !(i == 1 && p.up.Root() == p.gate.Root() && p.v == o.W) {
				return nil
			}
		}
	}
	return p
}

// splitGateUp is expertGateUp's pair of two products.
func (c *compiler) splitGateUp(o *gpu.MatMulID) *expertPair {
	if len(c.rest) < 2 {
		return nil
	}
	up, ok := c.rest[0].(*gpu.MatMulID)
	sw, ok2 := c.rest[1].(*gpu.SwiGLU)
	if !ok || !ok2 || up.In != o.In || up.IDs != o.IDs || up.W.Type != o.W.Type || up.W.Shape != o.W.Shape || !up.W.Contiguous() {
		return nil
	}
	if sw.Gate != o.Out || sw.Up != up.Out || sw.Out == nil {
		return nil
	}
	if n, err := c.rowParts(up.W, o.W.Type.RowBytes(o.W.Shape[0])*o.W.Shape[1], o.W.Shape[2]); err != nil || len(n) != 1 {
		return nil
	}
	N := o.W.Shape[1]
	return &expertPair{sw: sw, v: up.W, n: N, expertRows: N, gate: o.Out, up: up.Out, ops: 2}
}

// mergedGateUp is expertGateUp's merged stack: o's output a packed
// activation {2F, S, T}, the SwiGLU's gate its first F values of each row
// and its up the next F, as views with the output's strides.
func (c *compiler) mergedGateUp(o *gpu.MatMulID) *expertPair {
	sw, ok := c.rest[0].(*gpu.SwiGLU)
	if !ok || sw.Out == nil || sw.Gate == nil || sw.Up == nil {
		return nil
	}
	out := o.Out
	F := out.Shape[0] / 2
	if F == 0 || out.Shape[0] != 2*F || out.Kind != gpu.Activation || !out.Contiguous() || out.Type != tF32 {
		return nil
	}
	half := gpu.Shape4(F, out.Shape[1], out.Shape[2])
	for i, v := range []*gpu.Tensor{sw.Gate, sw.Up} {
		if v.Kind != gpu.View || v.Base != out || v.Off != i*4*F || v.Shape != half || v.Stride != out.Stride {
			return nil
		}
	}
	return &expertPair{sw: sw, v: o.W, n: F, expertRows: 2 * F, upRow: F, gate: sw.Gate, up: sw.Up, ops: 1}
}

// expertSum matches the experts' down product o followed by the weighted
// sum of its outputs, which matmul_id_weighted computes in one dispatch
// (with the residual add after the sum when there is one). It returns the
// weighted sum, or nil. in is o's (rounded) input; parts, the bindings o's
// weights need: they must be bound whole.
func (c *compiler) expertSum(o *gpu.MatMulID, in *gpu.Tensor, parts int) *gpu.WeightedSum {
	if len(c.rest) < 1 || parts != 1 {
		return nil
	}
	ws, ok := c.rest[0].(*gpu.WeightedSum)
	N, S, T := o.Out.Shape[0], o.Out.Shape[1], o.Out.Shape[2]
	if !ok || ws.In != o.Out || ws.Weights == nil || ws.Out == nil ||
		ws.Weights.Type != tF32 || ws.Weights.Shape != gpu.Shape4(S, T) || ws.Out.Type != tF32 || ws.Out.Shape != gpu.Shape4(N, T) {
		return nil
	}
	// The routing weights and the sum get bindings of their own beside the
	// product's: none may share memory with another.
	if _, err := locsOf(ws.Weights, ws.Out); err != nil {
		return nil
	}
	bound := []*gpu.Tensor{o.W, o.In, in, o.IDs, o.Out}
	for _, t := range []*gpu.Tensor{ws.Weights, ws.Out} {
		for _, u := range bound {
			if t.Root() == u.Root() {
				return nil
			}
		}
		bound = append(bound, t)
	}
	return ws
}

// lowerMatMulIDWeighted is one matmul_id_weighted dispatch for the down
// product o and the weighted sum ws after it (and the residual add after
// that when addAfter finds one).
func (c *compiler) lowerMatMulIDWeighted(o *gpu.MatMulID, ws *gpu.WeightedSum, in *gpu.Tensor, dec string, li, lid, lo loc) error {
	K, N, E := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	S, T, Sin := o.IDs.Shape[0], o.IDs.Shape[1], o.In.Shape[1]
	ls, err := locsOf(ws.Weights, ws.Out)
	if err != nil {
		return err
	}
	p := expertSumParams{expertParams: expertParams{K, N, S, T, o.W.Type.RowBytes(K), E, Sin, li, lid}, Out: lo, Weights: ls[0], Sum: ls[1]}
	// The weighted sum is fused, and the add after it if there is one.
	other, out, err := c.residual(&p.residualParams, 1, ws.Out, ws.In, ws.Weights, o.W, in, o.IDs)
	if err != nil {
		return err
	}
	return c.dispatch("matmul_id_weighted", dec, p, false, []*gpu.Tensor{o.W, in, o.IDs, o.Out, ws.Weights, ws.Out, other, out}, rowGroups(N)*T)
}
