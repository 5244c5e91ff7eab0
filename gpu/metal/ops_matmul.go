package metal

import (
	"fmt"
	"slices"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// productDecoders are the weight types the products and the embedding
// are built for: msl/parts' decode_TYPE and dot_TYPE.
var productDecoders = []string{"f32", "f16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q4_k", "q5_k", "q6_k"}

// decoder is the MSL decoder of a weight type, or an error naming it.
func decoder(t gpu.Type) (string, error) {
	name := strings.ToLower(t.String())
	if !slices.Contains(productDecoders, name) {
		return "", fmt.Errorf("weights of type %s are not supported on Metal yet", t)
	}
	return name, nil
}

// matvecRows is MV_ROWS of matvec.metal: the rows a threadgroup takes.
const matvecRows = 2

// rowGroups is the number of matvec threadgroups covering n rows.
func rowGroups(n int) int { return groupsOf(n, matvecRows) }

// weightPart is rows r0..r1 (exclusive) of a weight, bound as arg with
// row r0 starting at byte base of it; last for the part with the last
// rows.
type weightPart struct {
	arg    arg
	r0, r1 int
	base   int
	last   bool
}

// weightParts binds w, rows of rowBytes bytes each: one part a segment of
// its buffer (a weight past the device's largest buffer is split into
// several, on whole rows), or the one memory of any other tensor. w must
// be packed.
func (c *compiler) weightParts(w *gpu.Tensor, rowBytes, rows int) ([]weightPart, error) {
	if !w.Contiguous() {
		return nil, fmt.Errorf("W %s must be packed", w.Name)
	}
	r := w.Root()
	b, ok := r.Buf.(*buffer)
	if r.Kind != gpu.External || !ok || len(b.segs) == 1 {
		a, start, err := c.bind(w)
		if err != nil {
			return nil, err
		}
		return []weightPart{{arg: arg{mem: a.mem, off: a.off + start&^(bindAlign-1)}, r0: 0, r1: rows, base: start & (bindAlign - 1), last: true}}, nil
	}
	if b.be != c.be {
		return nil, fmt.Errorf("%s is bound to a buffer of another backend", r.Name)
	}
	if w.Kind == gpu.View {
		return nil, fmt.Errorf("%s: views of weights past the device's %d MiB buffers are not supported", w.Name, c.be.bufferLimit()>>20)
	}
	var ps []weightPart
	for _, s := range b.segs {
		if s.lo%rowBytes != 0 || s.hi%rowBytes != 0 && s.hi != b.size {
			return nil, fmt.Errorf("%s: a segment of %s does not hold whole rows of %d bytes", w.Name, r.Name, rowBytes)
		}
		off := s.at &^ (bindAlign - 1)
		ps = append(ps, weightPart{arg: arg{mem: s.mem, off: off}, r0: s.lo / rowBytes, r1: min(rows, s.hi/rowBytes), base: s.at - off, last: s.hi == b.size})
	}
	return ps, nil
}

// productParams are what every product kernel reads (with
// parts/matvec.metal): rows of K values, RowBytes bytes each in the
// weights' layout, N rows a matrix, B matrices (one for each index of the
// input's second dimension), T tokens, the input and the output.
type productParams struct {
	K, N, B, T, RowBytes int
	In, Out              loc
}

// matmulParams are matmul.metal's: the byte of W's argument where row 0
// starts.
type matmulParams struct {
	productParams
	Base int
}

func (c *compiler) lowerMatMul(o *gpu.MatMul) error {
	dec, err := decoder(o.W.Type)
	if err != nil {
		return err
	}
	if err := gpu.WantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := gpu.WantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	K, N, B := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	ops, err := c.operands(o.In, o.Out)
	if err != nil {
		return err
	}
	li, lo := ops[0].loc, ops[1].loc
	T := o.In.Shape[2]
	if B == 1 && o.In.Shape[2] == 1 {
		// {K, T}: the token index moves to the third dimension.
		T = o.In.Shape[1]
		li = tokensThird(li)
		if o.Out.Shape[2] == 1 {
			lo = tokensThird(lo)
		}
	}
	if o.In.Shape[0] != K || o.In.Shape[3] != 1 || (B > 1 && o.In.Shape[1] != B) {
		return fmt.Errorf("In %s has shape %v, want {%d, %d, T} to match W %v", o.In.Name, o.In.Shape, K, B, o.W.Shape)
	}
	if o.Out.Elements() != N*B*T || o.Out.Shape[0] != N {
		return fmt.Errorf("Out %s has shape %v, want {%d, %d, %d}", o.Out.Name, o.Out.Shape, N, B, T)
	}
	in, err := c.roundActivations(ops[0], li, o.W.Type, K, B, T)
	if err != nil {
		return err
	}
	rb := o.W.Type.RowBytes(K)
	parts, err := c.weightParts(o.W, rb, N*B)
	if err != nil {
		return err
	}
	if len(parts) > 1 && B > 1 {
		return fmt.Errorf("W %s: batched weights past the device's largest buffer are not supported", o.W.Name)
	}
	kernel, groups := "matmul", func(n int) int { return rowGroups(n) * B * T }
	if c.tiled(T) {
		kernel, groups = "matmul_tiled", func(n int) int { return tileGroups(n, B, T) }
	}
	for _, pt := range parts {
		n := pt.r1 - pt.r0
		if B > 1 {
			n = N
		}
		p := matmulParams{productParams{K, n, B, T, rb, in.loc, shiftRows(lo, pt.r0)}, pt.base}
		if err := c.dispatch(kernel, dec, p, false, []arg{pt.arg, in.arg, ops[1].arg}, groups(n)); err != nil {
			return err
		}
	}
	return nil
}

// Prefill products take matmul_tiled.metal: a threadgroup multiplies a
// tile of tiledRows weight rows by tiledTokens tokens, reading and decoding
// each weight once per tile of tokens instead of once per token. Decode
// (one token) and short steps keep the matvec, which reads the weights at
// full bandwidth for a single token. tiledFrom is the WebGPU backend's
// estimate of where the two meet; a decode batch's tokens keep the matvec,
// which sums each token as a step of that token alone does
// (gpu.Graph.Independent).
const (
	tiledRows   = 64
	tiledTokens = 64
	tiledFrom   = 16
)

// tiled reports whether a product of T tokens takes the tiled kernel.
func (c *compiler) tiled(T int) bool { return T >= tiledFrom && !c.g.Independent }

// tileGroups is the number of tiled threadgroups covering n rows of T
// tokens in each of B batches.
func tileGroups(n, B, T int) int { return groupsOf(n, tiledRows) * groupsOf(T, tiledTokens) * B }

// tokensThird moves a {K, T} layout's token stride to the third
// dimension, where the products index tokens.
func tokensThird(l loc) loc {
	l.Stride[2], l.Stride[1] = l.Stride[1], 0
	return l
}

// shiftRows moves a location's start by r elements of dimension 0.
func shiftRows(l loc, r int) loc {
	l.Off += uint32(r) * l.Stride[0]
	return l
}

// expertParams are the words parts/expert_rows.metal reads, with
// parts/matvec.metal's: the products by expert id of S slots of T tokens,
// rows of K values (RowBytes bytes each) and N rows an expert, Experts
// experts, InRows rows of In a token (S, or 1 where the slots share one),
// the chosen ids.
type expertParams struct {
	K, N, S, T, RowBytes int
	Experts, InRows      int
	In, IDs              loc
}

// matmulIDParams are matmul_id.metal's: the output, and the experts R0..R1
// of this dispatch's argument of W, from its byte Base, Last for the
// dispatch that also writes the zeros of ids out of range.
type matmulIDParams struct {
	expertParams
	Out          loc
	R0, R1, Base int
	Last         bool
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
	ops, err := c.operands(o.In, o.IDs, o.Out)
	if err != nil {
		return err
	}
	c.checkIDs(o.IDs, ops[1], E, "expert", "there are %d experts")
	rb := o.W.Type.RowBytes(K)
	parts, err := c.weightParts(o.W, rb*N, E)
	if err != nil {
		return err
	}
	in, err := c.roundActivations(ops[0], ops[0].loc, o.W.Type, K, Sin, T)
	if err != nil {
		return err
	}
	for _, pt := range parts {
		p := matmulIDParams{expertParams{K, N, S, T, rb, E, Sin, in.loc, ops[1].loc}, ops[2].loc, pt.r0, pt.r1, pt.base, pt.last}
		if err := c.dispatch("matmul_id", dec, p, false, []arg{pt.arg, in.arg, ops[1].arg, ops[2].arg}, rowGroups(N)*S*T); err != nil {
			return err
		}
	}
	return nil
}

// embedParams are embed.metal's: rows of D values (RowBytes bytes in the
// table's layout) of a table of Rows rows, T tokens; the rows R0..R1 of
// this dispatch's argument, from its byte Base, Last for the dispatch
// that also writes the out-of-range tokens' zeros.
type embedParams struct {
	D, T, RowBytes, Rows int
	Tokens, Out          loc
	Base, R0, R1         int
	Last                 bool
}

func (c *compiler) lowerEmbed(o *gpu.Embed) error {
	dec, err := decoder(o.Table.Type)
	if err != nil {
		return err
	}
	if err := gpu.WantType(o.Tokens, "Tokens", tI32); err != nil {
		return err
	}
	if err := gpu.WantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	D, V, T := o.Table.Shape[0], o.Table.Shape[1], o.Tokens.Shape[0]
	if o.Out.Shape[0] != D || o.Out.Shape[1] != T {
		return fmt.Errorf("Out %s has shape %v, want {%d, %d}", o.Out.Name, o.Out.Shape, D, T)
	}
	ops, err := c.operands(o.Tokens, o.Out)
	if err != nil {
		return err
	}
	c.checkIDs(o.Tokens, ops[0], V, "token", "the table has %d rows")
	rb := o.Table.Type.RowBytes(D)
	parts, err := c.weightParts(o.Table, rb, V)
	if err != nil {
		return err
	}
	for _, pt := range parts {
		p := embedParams{D: D, T: T, RowBytes: rb, Rows: V, Tokens: ops[0].loc, Out: ops[1].loc, Base: pt.base, R0: pt.r0, R1: pt.r1, Last: pt.last}
		if err := c.dispatch("embed", dec, p, false, []arg{pt.arg, ops[0].arg, ops[1].arg}, T); err != nil {
			return err
		}
	}
	return nil
}

// roundKey names a rounded copy by the memory it was made from: a packed
// tensor by its root, byte offset and size, so that views of the same
// bytes (the experts' {K, 1, T} reshape of a {K, T} norm) share it; any
// other tensor by itself.
type roundKey struct {
	in        *gpu.Tensor // nil for a packed tensor
	root      *gpu.Tensor
	off, size int
	mode, B   int
}

func roundKeyOf(t *gpu.Tensor, mode, B int) roundKey {
	k := roundKey{root: t.Root(), mode: mode, B: B}
	if !t.Contiguous() {
		k.in = t
		return k
	}
	if t.Kind == gpu.View {
		k.off = t.Off
	}
	k.size = gpu.Bytes(t.Type, t.Shape)
	return k
}

// quantizeActParams are quantize_act.metal's: Rows rows of K values, In's
// dim 1 (to split a row index) and where In is, and the rounding's block
// size and mode.
type quantizeActParams struct {
	K, Rows, D1 int
	In          loc
	Block, Mode int
}

// roundActivations adds the kernel rounding a product's input {K, B, T}
// (in, at location l) the way the CPU backend does for weights of type
// wt, and returns the rounded, packed copy; packed inputs of F32 weights
// pass through.
func (c *compiler) roundActivations(in operand, l loc, wt gpu.Type, K, B, T int) (operand, error) {
	if wt == gguf.F32 && l.Stride[0] == 1 {
		in.loc = l
		return in, nil
	}
	mode, bs, err := gpu.ActRounding(wt, K)
	if err != nil {
		return operand{}, err
	}
	key := roundKeyOf(in.t, mode, B)
	if r, ok := c.rounded[key]; ok {
		return r, nil
	}
	rows := B * T
	q := &gpu.Tensor{Name: in.t.Name + ".rounded", Type: gguf.F32, Shape: gpu.Shape4(K, rows), Kind: gpu.Activation}
	qo, err := c.operand(q)
	if err != nil {
		return operand{}, err
	}
	qo.loc = loc{Stride: [4]uint32{1, uint32(K), uint32(K * B), 0}}
	p := quantizeActParams{K: K, Rows: rows, D1: B, In: l, Block: bs, Mode: mode}
	if err := c.dispatch("quantize_act", "", p, false, []arg{in.arg, qo.arg}, groupsOf(rows*K, 256)); err != nil {
		return operand{}, err
	}
	c.rounded[key] = qo
	return qo, nil
}
