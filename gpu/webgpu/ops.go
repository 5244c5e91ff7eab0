//go:build cgo || js

package webgpu

import (
	"fmt"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// groupsOf64 is the number of 64-thread workgroups covering n threads.
func groupsOf64(n int) int { return (n + 63) / 64 }

// binaryParams are the words of the elementwise kernels (add, mul, scale,
// swiglu: parts/binary.wgsl): Out = apply(A, B) over Out's shape, S the
// scale's constant.
type binaryParams struct {
	Count     int
	Shape     [4]int
	A, B, Out loc
	S         float32
}

func (c *compiler) lowerBinary(name string, a, b, out *gpu.Tensor, s float32) error {
	for _, x := range []struct {
		t    *gpu.Tensor
		what string
	}{{a, "A"}, {b, "B"}, {out, "Out"}} {
		if err := wantType(x.t, x.what, tF32); err != nil {
			return err
		}
	}
	if a.Shape != out.Shape {
		return fmt.Errorf("%s %v and Out %s %v differ in shape", a.Name, a.Shape, out.Name, out.Shape)
	}
	ls, err := locsOf(a, b, out)
	if err != nil {
		return err
	}
	la, lb, lo := ls[0], ls[1], ls[2]
	for i := range 4 {
		switch {
		case b.Shape[i] == out.Shape[i]:
		case b.Shape[i] == 1 && (name == "mul" || name == "add"):
			lb.stride[i] = 0 // broadcast: a bias over tokens, a scale
		default:
			return fmt.Errorf("B %s %v does not match Out %v", b.Name, b.Shape, out.Shape)
		}
	}
	p := binaryParams{Count: out.Elements(), Shape: out.Shape, A: la, B: lb, Out: lo, S: s}
	return c.dispatch(name, "", p, false, []*gpu.Tensor{a, b, out}, groupsOf64(out.Elements()))
}

// rmsNormParams are rmsnorm.wgsl's words: rows of N values, In's dims 1
// and 2 (to split a row index), the norm's eps and weight.
type rmsNormParams struct {
	N, D1, D2       int
	Eps             float32
	HasWeight       bool
	In, Out, Weight loc
}

// rmsNormRoundParams are rmsnorm_round.wgsl's: also quantize_act's
// rounding (block size and mode) of the output, for the products after.
type rmsNormRoundParams struct {
	rmsNormParams
	Block, Mode int
}

func (c *compiler) lowerRMSNorm(o *gpu.RMSNorm) error {
	if err := wantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	if o.In.Shape != o.Out.Shape {
		return fmt.Errorf("In %v and Out %v differ in shape", o.In.Shape, o.Out.Shape)
	}
	if !(o.Eps >= 0) {
		return fmt.Errorf("eps %g is negative", o.Eps)
	}
	n := o.In.Shape[0]
	ls, err := locsOf(o.In, o.Out)
	if err != nil {
		return err
	}
	li, lo := ls[0], ls[1]
	w, has := o.In, false
	lw := li
	if o.Weight != nil {
		if err := wantType(o.Weight, "Weight", tF32); err != nil {
			return err
		}
		if o.Weight.Elements() != n {
			return fmt.Errorf("Weight %s has %d elements, want %d", o.Weight.Name, o.Weight.Elements(), n)
		}
		if lw, err = locOf(o.Weight); err != nil {
			return err
		}
		w, has = o.Weight, true
	}
	p := rmsNormParams{N: n, D1: o.In.Shape[1], D2: o.In.Shape[2], Eps: o.Eps, HasWeight: has, In: li, Out: lo, Weight: lw}
	// Workgroups of the rounding kernel share rows, so In must not be Out.
	if mode, bs, ok := c.roundsNext(o.Out); ok && o.In.Root() != o.Out.Root() {
		// The products reading Out get its rounded copy from this kernel.
		rows := o.In.Rows()
		q := roundedTensor(o.Out.Name, n, rows)
		pr := rmsNormRoundParams{p, bs, mode}
		// A prompt's many rows packed for the tiled products take a
		// workgroup a row (rmsnorm_packed); a decode step's few rows
		// spread over more workgroups, a value a thread (rmsnorm_round).
		kernel, groups := "rmsnorm_round", rows*((n+255)/256)
		if mode >= packedQ8 && c.tiled(rows) {
			kernel, groups = "rmsnorm_packed", rows
		}
		if err := c.dispatch(kernel, "", pr, false, []*gpu.Tensor{o.In, w, o.Out, q}, groups); err != nil {
			return err
		}
		c.rounded[roundKeyOf(o.Out, mode, 1)] = roundedAct{q, roundedLoc(n, 1)}
		return nil
	}
	return c.dispatch("rmsnorm", "", p, false, []*gpu.Tensor{o.In, w, o.Out}, o.In.Rows())
}

// roundsNext reports whether the next op reading t, past products that
// read it unrounded (F32 weights: a MoE router), is a product that rounds
// it, t being a packed {K, T} its kernel reads as it is (t itself, or the
// experts' {K, 1, T} view of it), and with what rounding: what
// quantize_act would do before it.
func (c *compiler) roundsNext(t *gpu.Tensor) (mode, bs int, ok bool) {
	if t.Kind != gpu.Activation || t.Shape[2] != 1 || t.Shape[3] != 1 || !t.Contiguous() {
		return 0, 0, false
	}
	same := func(in *gpu.Tensor) bool { return roundKeyOf(in, 0, 1) == roundKeyOf(t, 0, 1) }
	for _, op := range c.rest {
		for _, in := range op.Inputs() {
			if in.Root() != t.Root() {
				continue
			}
			var wt gpu.Type
			var tiled bool // as the product's lowering will decide
			switch m := op.(type) {
			case *gpu.MatMul:
				if m.In != t || m.W.Shape[2] != 1 {
					return 0, 0, false
				}
				wt, tiled = m.W.Type, c.tiled(t.Shape[1])
			case *gpu.MatMulID:
				if !same(m.In) || m.In.Shape != gpu.Shape4(t.Shape[0], 1, t.Shape[1]) {
					return 0, 0, false
				}
				wt, tiled = m.W.Type, c.groupsExperts(m.W, t.Shape[1])
			default:
				return 0, 0, false
			}
			if wt == tF32 {
				if _, isMat := op.(*gpu.MatMul); isMat {
					break // reads t unrounded; look further
				}
				return 0, 0, false
			}
			mode, bs, err := roundingOf(wt, t.Shape[0], tiled)
			return mode, bs, err == nil
		}
		for _, o := range op.Outputs() {
			if o.Root() == t.Root() {
				return 0, 0, false
			}
		}
	}
	return 0, 0, false
}

// decoder is the WGSL decoder of a weight type, or an error naming it.
func decoder(t gpu.Type) (string, error) {
	switch name := strings.ToLower(t.String()); name {
	case "f32", "f16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q4_k", "q5_k", "q6_k":
		return name, nil
	}
	return "", fmt.Errorf("weights of type %s are not supported on WebGPU yet", t)
}

// productParams are what every product kernel reads (with
// parts/matvec.wgsl or parts/tile_mul.wgsl): rows of K values, RowBytes
// bytes each in the weights' layout, N rows a matrix, B matrices (one for
// each index of the input's second dimension), T tokens, the input and
// the output.
type productParams struct {
	K, N, B, T, RowBytes int
	In, Out              loc
}

// matmulParams are matmul.wgsl's, matmul_tiled.wgsl's and
// matmul_tokens.wgsl's (and _wide's) words: the
// epilogue (epi...) and its operands, E and G read, F written, and the
// byte of W's binding where row 0 starts.
type matmulParams struct {
	productParams
	Epilogue int
	E, F, G  loc
	Base     int
}

// gateUpParams are matmul_gate_up.wgsl's words: Out is the gate's
// product, U the up's, F the gated unit; the bytes where W's and V's row
// 0 start; Round, for matmul_gate_up_round, how F is rounded for the down
// product.
type gateUpParams struct {
	productParams
	U, F        loc
	Base, BaseV int
	Round       roundRows
}

func (c *compiler) lowerMatMul(o *gpu.MatMul) error {
	dec, err := decoder(o.W.Type)
	if err != nil {
		return err
	}
	if err := wantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	if !o.W.Contiguous() {
		return fmt.Errorf("W %s must be packed", o.W.Name)
	}
	K, N, B := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	ls, err := locsOf(o.In, o.Out)
	if err != nil {
		return err
	}
	li, lo := ls[0], ls[1]
	T := o.In.Shape[2]
	swapT := false
	if B == 1 && o.In.Shape[2] == 1 {
		// {K, T}: the token index moves to the third dimension.
		T = o.In.Shape[1]
		li.tokensThird()
		if o.Out.Shape[2] == 1 {
			lo.tokensThird()
			swapT = true
		}
	}
	if o.In.Shape[0] != K || o.In.Shape[3] != 1 || (B > 1 && o.In.Shape[1] != B) {
		return fmt.Errorf("In %s has shape %v, want {%d, %d, T} to match W %v", o.In.Name, o.In.Shape, K, B, o.W.Shape)
	}
	if o.Out.Elements() != N*B*T || o.Out.Shape[0] != N {
		return fmt.Errorf("Out %s has shape %v, want {%d, %d, %d}", o.Out.Name, o.Out.Shape, N, B, T)
	}
	in, li, err := c.roundActivations(o.In, li, o.W.Type, K, B, T, c.tiled(T))
	if err != nil {
		return err
	}
	rb := o.W.Type.RowBytes(K)
	parts, err := c.rowParts(o.W, rb, N*B)
	if err != nil {
		return err
	}
	if len(parts) > 1 && B > 1 {
		return fmt.Errorf("W %s: batched weights larger than a binding are not supported", o.W.Name)
	}
	// Tiled, gate and up stay two products, the second with the SwiGLU
	// as its epilogue.
	kernel, groups := "matmul", func(n int) int { return rowGroups(n) * B * T }
	if c.tiled(T) {
		kernel, groups = "matmul_tiled", func(n int) int { return tileGroups(n, B, T) }
	} else if c.g.Independent && T > 1 && splitsDecode(o.W.Type) {
		k, per, rows := tokensKernel(T, K, N, B)
		kernel = k
		groups = func(n int) int { return tokensGroups(n, B, T, per, rows) }
	} else if gate, up, sw := c.gateUpPair(o, c.rest, in, B, len(parts)); sw != nil {
		return c.lowerGateUp(gate, up, sw, in, li, dec, K, N, T, rb, swapT)
	}
	if run := c.qkvRun(o, in, B, T, len(parts)); run != nil {
		return c.lowerQKV(run, in, li, dec)
	}
	kind, other, out := c.epilogue(o, in)
	second := other
	if kernel == "matmul" && kind == epiAdd {
		if g, out2 := c.secondAdd(o, in, out); g != nil {
			kind, second, out = epiAddAdd, g, out2
		}
	}
	lx, err := locsOf(other, out, second)
	if err != nil {
		return err
	}
	if swapT {
		for i := range lx {
			lx[i].tokensThird()
		}
	}
	le, lf, lg := lx[0], lx[1], lx[2]
	if kernel == "matmul" && kind == epiNone && B == 1 && T == 1 && len(parts) == 1 {
		if r := c.routeAfter(o); r != nil {
			p := matmulParams{productParams: productParams{K, N, B, T, rb, li, lo}, Base: parts[0].base}
			return c.lowerRouteTail(o, r, p, dec, in, parts[0])
		}
	}
	if kernel == "matmul" && kind == epiNone {
		if r := c.roundingProduct(o.Out, lo, N, B, T, len(parts), 0); r != nil {
			return c.lowerRoundingProduct(o, r, in, li, lo, dec, K, N, B, rb, parts[0])
		}
	}
	for _, pt := range parts {
		n := pt.r1 - pt.r0
		if B > 1 {
			n = N
		}
		p := matmulParams{productParams: productParams{K, n, B, T, rb, li, shiftRows(lo, pt.r0)}, Epilogue: kind,
			E: shiftRows(le, pt.r0), F: shiftRows(lf, pt.r0), G: shiftRows(lg, pt.r0), Base: pt.base}
		ts := []*gpu.Tensor{o.W, in, o.Out, other, out}
		if kernel == "matmul" {
			ts = append(ts, second)
		}
		if err := c.dispatchPart(kernel, dec, p, false, ts, pt, groups(n)); err != nil {
			return err
		}
	}
	return nil
}

// gateUpPair matches the product o followed (in rest, the ops after it)
// by a second product of the same input and of weights of o's type and
// shape, then the SwiGLU of both: the feed-forward's gate and up, which
// matmul_gate_up computes in one dispatch. It returns the gate and up products and the SwiGLU, or nil
// for none. in is the products' (rounded) input; B and parts, o's batch
// and the bindings its weights need: weights bound whole, unbatched.
func (c *compiler) gateUpPair(o *gpu.MatMul, rest []gpu.Op, in *gpu.Tensor, B, parts int) (*gpu.MatMul, *gpu.MatMul, *gpu.SwiGLU) {
	if len(rest) < 2 || B != 1 || parts != 1 {
		return nil, nil, nil
	}
	m, ok := rest[0].(*gpu.MatMul)
	sw, ok2 := rest[1].(*gpu.SwiGLU)
	if !ok || !ok2 || m.In != o.In || m.W.Type != o.W.Type || m.W.Shape != o.W.Shape || !m.W.Contiguous() {
		return nil, nil, nil
	}
	gate, up := o, m
	if sw.Gate == m.Out && sw.Up == o.Out {
		gate, up = m, o
	}
	if sw.Gate != gate.Out || sw.Up != up.Out || sw.Out == nil {
		return nil, nil, nil
	}
	// Each output is written by its own binding while the weights and the
	// input are read: none may share memory with those, nor with another
	// output, and the second product must not overwrite the first's input.
	read := []*gpu.Tensor{o.W, m.W, o.In, in}
	outs := []*gpu.Tensor{o.Out, m.Out, sw.Out}
	for i, t := range outs {
		if t.Type != tF32 || t.Shape != o.Out.Shape {
			return nil, nil, nil
		}
		if _, err := locOf(t); err != nil {
			return nil, nil, nil
		}
		for _, u := range append(read, outs[:i]...) {
			if t.Root() == u.Root() {
				return nil, nil, nil
			}
		}
	}
	return gate, up, sw
}

// lowerGateUp adds the matmul_gate_up dispatch of a gateUpPair; the rest
// are lowerMatMul's findings for either product.
func (c *compiler) lowerGateUp(gate, up *gpu.MatMul, sw *gpu.SwiGLU, in *gpu.Tensor, li loc, dec string, K, N, T, rb int, swapT bool) error {
	ls, err := locsOf(gate.Out, up.Out, sw.Out)
	if err != nil {
		return err
	}
	if swapT {
		for i := range ls {
			ls[i].tokensThird()
		}
	}
	p := gateUpParams{productParams: productParams{K, N, 1, T, rb, li, ls[0]}, U: ls[1], F: ls[2]}
	c.fused = 2
	ts := []*gpu.Tensor{gate.W, in, gate.Out, up.Out, sw.Out, up.W}
	// A down product of integer dots reads its input packed by a
	// quantize_act of its own: the gated unit in matvec_shape_round's
	// workgroups of 32 rows ran slower than matmul_gate_up and that
	// dispatch together (bench/JOURNAL.md).
	if r := c.roundingProduct(sw.Out, ls[2], N, 1, T, 1, 2); r != nil && r.mode != packedQ8 {
		r.use(c)
		p.Round = r.words()
		return c.dispatch("matmul_gate_up_round", dec, p, false, append(ts, r.q), N/roundingRows*T)
	}
	return c.dispatch("matmul_gate_up", dec, p, false, ts, rowGroups(N)*T)
}

// Epilogues of matmul.wgsl: what it also writes from a product P besides
// Out, in place of the op after the product.
const (
	epiNone     = iota
	epiAdd      // Add: P + other
	epiSiluGate // SwiGLU with P as Up: silu(other)·P
	epiSiluUp   // SwiGLU with P as Gate: silu(P)·other
	epiAddAdd   // two Adds: second + (P + other)
)

// epilogue fuses the op after the product o into it when that op is an
// Add or a SwiGLU taking Out and a tensor of Out's shape: a dispatch less
// each (two a layer: the residual adds; one: the feed-forward's gate). It
// returns the epilogue, the other operand and the fused op's output, or
// Out twice for none. in is the product's (rounded) input.
func (c *compiler) epilogue(o *gpu.MatMul, in *gpu.Tensor) (int, *gpu.Tensor, *gpu.Tensor) {
	if len(c.rest) == 0 {
		return epiNone, o.Out, o.Out
	}
	kind, other, out := epiNone, o.Out, o.Out
	switch n := c.rest[0].(type) {
	case *gpu.Add:
		kind, out = epiAdd, n.Out
		switch o.Out {
		case n.A:
			other = n.B
		case n.B:
			other = n.A
		}
	case *gpu.SwiGLU:
		out = n.Out
		switch o.Out {
		case n.Up:
			kind, other = epiSiluGate, n.Gate
		case n.Gate:
			kind, other = epiSiluUp, n.Up
		}
	}
	if kind == epiNone || other == o.Out || other == nil || out == nil {
		return epiNone, o.Out, o.Out
	}
	for _, t := range []*gpu.Tensor{other, out} {
		if t.Type != tF32 || t.Shape != o.Out.Shape {
			return epiNone, o.Out, o.Out
		}
		// Bindings of one dispatch may not mix read-only and writable uses
		// of a buffer, and the weights and input are bound read-only.
		if r := t.Root(); r == in.Root() || r == o.W.Root() {
			return epiNone, o.Out, o.Out
		}
		if _, err := locOf(t); err != nil {
			return epiNone, o.Out, o.Out
		}
	}
	if out.Root() == o.Out.Root() {
		return epiNone, o.Out, o.Out
	}
	c.fused = 1
	return kind, other, out
}

// secondAdd matches, after the product o and an Add of its output fused
// as the epilogue writing t, a second Add of t and another tensor g, with
// t read by nothing after: an expert layer's shared expert, whose down
// product adds the chosen experts' sum and then the residual. matmul.wgsl
// then writes g + (P + other) to the second Add's output, the two adds in
// the graph's order, so the result is theirs bit for bit: a dispatch less
// a layer. It returns g and that output, or nils.
func (c *compiler) secondAdd(o *gpu.MatMul, in, t *gpu.Tensor) (*gpu.Tensor, *gpu.Tensor) {
	if len(c.rest) < 2 {
		return nil, nil
	}
	n, ok := c.rest[1].(*gpu.Add)
	if !ok || n.A == n.B || n.Out == nil {
		return nil, nil
	}
	g := n.A
	if g == t {
		g = n.B
	} else if n.B != t {
		return nil, nil
	}
	if !c.unread(3, t) {
		return nil, nil
	}
	for _, u := range []*gpu.Tensor{g, n.Out} {
		if u.Type != tF32 || u.Shape != o.Out.Shape {
			return nil, nil
		}
		if r := u.Root(); r == in.Root() || r == o.W.Root() || r == o.Out.Root() {
			return nil, nil
		}
		if _, err := locOf(u); err != nil {
			return nil, nil
		}
	}
	c.fused = 2
	return g, n.Out
}

// matvecRows is ROWS of matvec.wgsl: the rows one matvec workgroup takes.
const matvecRows = 2

// rowGroups is the number of matvec workgroups covering n rows.
func rowGroups(n int) int { return (n + matvecRows - 1) / matvecRows }

// batchRows is WROWS of tokens_shape.wgsl (and _wide): the weight rows one
// matmul_tokens workgroup takes; tallRows is tokens_shape_tall's.
const (
	batchRows = 2
	tallRows  = 4
)

// batchTokens is TOKENS of tokens_shape.wgsl: the sequences of a decode
// batch whose products one matmul_tokens workgroup computes; wideTokens
// is tokens_shape_wide's and _tall's, taken from that many tokens on
// (batch buckets are powers of two: a smaller one would compute padding),
// and tallTokens the step from which matmul_tokens_tall takes four rows.
const (
	batchTokens = 4
	wideTokens  = 8
	tallTokens  = 16
)

// tallGroups is the fewest workgroups for which a batch product takes
// matmul_tokens_tall: four rows a workgroup halve the grid, and the
// H100's 8B batch step of eight sequences lost 14% where that left its
// products 256 to 3584 workgroups of 32 threads. With this floor the 8B's
// steps of 16 and 64 run 5-6% faster and its 16 served streams 4-6%.
// A variable only so that a test can make every product of a tiny model
// take the tall shape (export_test.go).
var tallGroups = 2048

// tallK is the shortest row (values) that takes matmul_tokens_tall. In
// rows of 768 values or fewer (GLM-4.7-Flash's q_b and per-head products)
// a lane holds one block or none, and four rows there left GLM's served
// streams 3-4% slower than two (bench/JOURNAL.md).
var tallK = 2048

// tokensKernel is the batch product kernel for steps of T tokens over
// B batches of N weight rows of K values, the tokens one of its
// workgroups takes and its rows. Four rows are taken only where two
// token groups or more share the rows' loads (through L2: matmul_tokens'
// grid runs a row group's token groups side by side), the grid stays
// large and the rows are long (tallK).
func tokensKernel(T, K, N, B int) (kernel string, tokens, rows int) {
	switch {
	case T >= tallTokens && K >= tallK && tokensGroups(N, B, T, wideTokens, tallRows) >= tallGroups:
		return "matmul_tokens_tall", wideTokens, tallRows
	case T >= wideTokens:
		return "matmul_tokens_wide", wideTokens, batchRows
	}
	return "matmul_tokens", batchTokens, batchRows
}

// tokensGroups is how many workgroups of a batch product cover n rows of
// B batches for T tokens, each taking rows rows of per tokens.
func tokensGroups(n, B, T, per, rows int) int {
	return (n + rows - 1) / rows * B * ((T + per - 1) / per)
}

// splitsDecode reports whether weights of type t take matmul_tokens in a
// decode batch: their dot_TYPE.wgsl decodes a part apart from its dot
// (wload, wdot), so the batch decodes each part once. The other types'
// batches run a matvec a token.
func splitsDecode(t gguf.TensorType) bool {
	return t == gguf.Q4_0 || t == gguf.Q8_0 || t == gguf.Q4_K || t == gguf.Q6_K
}

// embedParams are embed.wgsl's words: rows of D values (RowBytes bytes in
// the table's layout) of a table of Rows rows, T tokens; the rows R0..R1
// of this dispatch's binding, from its byte Base, Last for the dispatch
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
	if err := wantType(o.Tokens, "Tokens", tI32); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	D, V, T := o.Table.Shape[0], o.Table.Shape[1], o.Tokens.Shape[0]
	if o.Out.Shape[0] != D || o.Out.Shape[1] != T {
		return fmt.Errorf("Out %s has shape %v, want {%d, %d}", o.Out.Name, o.Out.Shape, D, T)
	}
	ls, err := locsOf(o.Tokens, o.Out)
	if err != nil {
		return err
	}
	lt, lo := ls[0], ls[1]
	c.checkIDs(o.Tokens, V, "token", "the table has %d rows")
	rb := o.Table.Type.RowBytes(D)
	parts, err := c.rowParts(o.Table, rb, V)
	if err != nil {
		return err
	}
	for _, pt := range parts {
		p := embedParams{D: D, T: T, RowBytes: rb, Rows: V, Tokens: lt, Out: lo, Base: pt.base, R0: pt.r0, R1: pt.r1, Last: pt.last}
		if err := c.dispatchPart("embed", dec, p, false, []*gpu.Tensor{o.Table, o.Tokens, o.Out}, pt, T); err != nil {
			return err
		}
	}
	return nil
}

func (c *compiler) lowerRope(o *gpu.Rope) error {
	if err := c.checkRope(o); err != nil {
		return err
	}
	hd, H, T := o.In.Shape[0], o.In.Shape[1], o.In.Shape[2]
	ls, err := locsOf(o.In, o.Out)
	if err != nil {
		return err
	}
	ff := o.In
	if o.FreqFactors != nil {
		ff = o.FreqFactors
	}
	p := ropeKernelParams{hd, H, T, ropeWords(o), ls[0], ls[1]}
	// A workgroup takes ropeHeads heads of a token (rope.wgsl's HC).
	return c.dispatch("rope", "", p, true, []*gpu.Tensor{o.In, ff, o.Out}, (H+ropeHeads-1)/ropeHeads*T)
}

// ropeHeads are the heads of a token a workgroup of rope.wgsl takes (HC):
// they share the token's angles.
const ropeHeads = 4

func (c *compiler) checkRope(o *gpu.Rope) error { return gpu.CheckRope(o, c.g.Tokens) }

// ropeParams are parts/rope_angle.wgsl's words: a rope's constants.
type ropeParams struct {
	RopeDims   int
	RopeNeox   bool
	ThetaScale float32
	FreqScale  float32
	ExtFactor  float32
	CorrLo     float32 // YaRN's ramp
	CorrHi     float32
	Mscale     float32
	HasFactors bool
}

// ropeKernelParams are rope.wgsl's words: heads of HeadDim elements, H a
// token, T tokens.
type ropeKernelParams struct {
	HeadDim, H, T int
	ropeParams
	In, Out loc
}

// ropeWords are the rope constants of a checked rope.
func ropeWords(o *gpu.Rope) ropeParams {
	a := o.Angles()
	return ropeParams{RopeDims: o.Dims, RopeNeox: o.Mode == gpu.RopeNeoX, ThetaScale: a.ThetaScale, FreqScale: o.FreqScale,
		ExtFactor: o.ExtFactor, CorrLo: a.CorrLo, CorrHi: a.CorrHi, Mscale: a.MScale, HasFactors: o.FreqFactors != nil}
}

// checkCache validates a cache operand {width, Ctx} of F32 or F16, packed.
// checkCache adds to gpu.CheckCache what the kernels index by: a packed
// cache of even width when F16 (two values a word).
func (c *compiler) checkCache(t *gpu.Tensor, what string, width int) error {
	if err := gpu.CheckCache(t, what, width, c.g.Tokens); err != nil {
		return err
	}
	if t.Kind == gpu.View || !t.Contiguous() {
		return fmt.Errorf("%s %s must be packed", what, t.Name)
	}
	if t.Type == tF16 && width%2 != 0 {
		return fmt.Errorf("%s %s: F16 rows of odd width %d are not supported on WebGPU", what, t.Name, width)
	}
	return nil
}

// kvStoreParams are kv_store.wgsl's words: the step's tokens, whether it
// stores values, and the keys' and the values' sides.
type kvStoreParams struct {
	Tokens int
	HasV   bool
	K, V   kvSide
}

// kvSide is one cache's words: rows of Width values, Row elements apart in
// the cache, Half for an F16 cache, the step's rows at Src.
type kvSide struct {
	Width, Row int
	Half       bool
	Src        loc
}

func (c *compiler) lowerKVStore(o *gpu.KVStore) error {
	// side makes one source and cache's words and returns the threads it
	// takes.
	side := func(p *kvSide, src, cache *gpu.Tensor, what string) (int, error) {
		if err := wantType(src, what, tF32); err != nil {
			return 0, err
		}
		D, T := src.Shape[0], src.Shape[1]
		if T != c.g.Tokens || src.Shape[2] != 1 || src.Shape[3] != 1 {
			return 0, fmt.Errorf("%s %s has shape %v, want {D, %d}", what, src.Name, src.Shape, c.g.Tokens)
		}
		if err := c.checkCache(cache, "Cache"+what, D); err != nil {
			return 0, err
		}
		c.p.needCtx(cache.Shape[1])
		ls, err := locOf(src)
		if err != nil {
			return 0, err
		}
		half := cache.Type == tF16
		per := D
		if half {
			per = D / 2
		}
		*p = kvSide{Width: D, Row: D, Half: half, Src: ls}
		return per * T, nil
	}
	if (o.V == nil) != (o.CacheV == nil) {
		return fmt.Errorf("V and CacheV go together")
	}
	p := kvStoreParams{Tokens: c.g.Tokens, HasV: o.V != nil}
	n, err := side(&p.K, o.K, o.CacheK, "K")
	if err != nil {
		return err
	}
	tensors := []*gpu.Tensor{o.K, o.CacheK, o.K, o.CacheK}
	if p.HasV {
		nv, err := side(&p.V, o.V, o.CacheV, "V")
		if err != nil {
			return err
		}
		n += nv
		tensors[2], tensors[3] = o.V, o.CacheV
	}
	return c.dispatch("kv_store", "", p, true, tensors, groupsOf64(n))
}

func (c *compiler) lowerAttention(o *gpu.Attention) error {
	if err := c.checkAttention(o); err != nil {
		return err
	}
	c.p.needCtx(o.CacheK.Shape[1])
	ls, err := locsOf(o.Q, o.Out)
	if err != nil {
		return err
	}
	DK, H, T := o.Q.Shape[0], o.Q.Shape[1], o.Q.Shape[2]
	a := attentionWords(o, DK, H, T)
	cv := o.CacheV
	if o.VFromK {
		cv = o.CacheK
	}
	// Prefill keeps one pass, a workgroup per token and head (or four
	// heads of one key head): its many tokens fill the GPU already, and a
	// second pass measured slower there. A decode batch takes decode's
	// two passes, which sum each token as a step of it alone does.
	chunks := c.scoreChunks(o)
	var sc *gpu.Tensor
	group := T
	if c.g.Independent {
		// A batch whose scores do not fit one binding takes its tokens in
		// even groups that do, each through the lone step's two passes.
		fit := max(1, c.scoreTokens(chunks, H))
		groups := (T + fit - 1) / fit
		group = (T + groups - 1) / groups
	}
	if T == 1 || c.g.Independent {
		sc = c.scores(chunks, H, group)
	}
	if sc == nil {
		p := attentionKernelParams{a, ls[0], ls[1]}
		kernel, dec, groups := "attention", cacheDecoder(o), H*T
		if T > 1 && (H/o.HKV)%4 == 0 && c.be.fuses(fuseAttentionHeads) {
			// Four heads on one key head read its cache rows together,
			// for headTokens(maxd) tokens a workgroup, their queries held
			// for heads of this size only.
			maxd := (max(a.DK, a.DV) + 127) / 128 * 128
			qt := headTokens(maxd)
			kernel, groups = "attention_heads", H/4*((T+qt-1)/qt)
			dec += fmt.Sprintf("@%d", maxd)
		}
		return c.dispatch(kernel, dec, p, true, []*gpu.Tensor{o.Q, o.CacheK, cv, o.Out}, groups)
	}
	r := c.attentionRounds(o)
	for t0 := 0; t0 < T; t0 += group {
		tg := min(group, T-t0)
		spread := scoreSpread(chunks, H*tg)
		p := attentionScoresParams{attentionWords(o, DK, H, tg), ls[0], chunks, spread, t0}
		if err := c.dispatch("attention_scores", cacheDecoder(o), p, true, []*gpu.Tensor{o.Q, o.CacheK, sc}, H*tg*spread); err != nil {
			return err
		}
		if err := c.valuesPass(o, sc, chunks, ls[1], r, t0, tg); err != nil {
			return err
		}
	}
	return nil
}

// headTokens is QT of attention_heads.wgsl built for heads of up to maxd
// values: the tokens a workgroup takes, four where a thread's value sums
// of a token are one pair.
func headTokens(maxd int) int {
	if maxd <= 128 {
		return 4
	}
	return 1
}

// scoreRows is SCH of attend.wgsl: the cache rows one workgroup of the
// scores pass takes.
const scoreRows = 16

// scoreChunks is how many workgroups of the scores pass split a
// sequence's cache rows (Graph.SeqRows: a decode batch's cache of many
// slots would otherwise launch a workgroup for every row of every slot,
// most of them idle).
func (c *compiler) scoreChunks(o *gpu.Attention) int {
	return (c.g.SeqRows(o.CacheK.Shape[1]) + scoreRows - 1) / scoreRows
}

// scoreGroups is about how many workgroups a scores pass launches: enough
// to fill a large GPU (an H100's 132 SMs hold 16 or more of 64 threads
// each) at any context. A variable only so that a test can make every
// workgroup take several chunks (export_test.go).
var scoreGroups = 4096

// scoreSpread is how many workgroups share a score row (a head of a
// token) of chunks chunks, each taking chunks spread apart: at most the
// chunks, and about scoreGroups in all over rows rows. A workgroup per
// chunk would launch a grid for the longest context a step allows, idle
// but for the positions reached (a chat at 4096 positions: 256 chunks a
// head, two or three of them busy after a short prompt).
func scoreSpread(chunks, rows int) int {
	return max(1, min(chunks, (scoreGroups+rows-1)/rows))
}

// scores returns the scratch rows the scores pass writes for H heads of T
// tokens, shared by every layer of the graph, or nil where they would not
// fit a storage binding: a decode batch then takes its tokens a group at
// a time, a prompt attention.wgsl's one pass.
func (c *compiler) scores(chunks, H, T int) *gpu.Tensor {
	if !c.scoresFit(chunks, H, T) {
		return nil
	}
	n := chunks * scoreRows * H * T
	if c.scratch == nil || c.scratch.Elements() < n {
		c.scratch = gpu.NewActivation(c.g.Name+".scores", tF32, gpu.Shape4(n))
	}
	return c.scratch
}

// scoresFit reports whether the scores of H heads of T tokens, chunks
// chunks a row, fit one storage binding.
func (c *compiler) scoresFit(chunks, H, T int) bool { return T <= c.scoreTokens(chunks, H) }

// scoreTokens is how many tokens' scores of H heads, chunks chunks a row,
// one storage binding holds.
func (c *compiler) scoreTokens(chunks, H int) int {
	return int(c.be.bindingLimit() / uint64(4*chunks*scoreRows*H))
}

// attentionValues dispatches the softmax and the value sums of an
// attention whose scores pass wrote sc.
func (c *compiler) attentionValues(o *gpu.Attention, sc *gpu.Tensor, chunks int, out loc) error {
	return c.valuesPass(o, sc, chunks, out, c.attentionRounds(o), 0, o.Q.Shape[2])
}

// valuesPass is attentionValues for tokens t0 .. t0+tg-1 (their score rows
// from sc's first), the output rounded as r says (attentionRounds, once
// for all of an attention's groups: it registers the rounded tensor the
// next product reads).
func (c *compiler) valuesPass(o *gpu.Attention, sc *gpu.Tensor, chunks int, out loc, r rounds, t0, tg int) error {
	DK, H := o.Q.Shape[0], o.Q.Shape[1]
	cv := o.CacheV
	if o.VFromK {
		cv = o.CacheK
	}
	p := attentionValuesParams{attentionWords(o, DK, H, tg), out, chunks, r.mode, r.k, t0}
	return c.dispatch("attention_values", cacheDecoder(o), p, true, []*gpu.Tensor{sc, cv, o.Out, r.q}, H*tg*((o.DV+valueSlice-1)/valueSlice))
}

// rounds is how the values pass rounds its output for the product after
// it: quantize_act's mode (3: none), the rounded tensor and its rows'
// length.
type rounds struct {
	mode int
	q    *gpu.Tensor
	k    int
}

// nextReader is the product that reads t first after op o (o may be among
// the ops a fused kernel takes in, still in c.rest), or nil where another
// op reads or writes t before one does.
func (c *compiler) nextReader(o gpu.Op, t *gpu.Tensor) *gpu.MatMul {
	m, _ := c.firstReader(c.rest, o, t).(*gpu.MatMul)
	return m
}

// firstReader is the op of ops (o aside) that reads t first, or nil where
// one writes it before any reads it.
func (c *compiler) firstReader(ops []gpu.Op, o gpu.Op, t *gpu.Tensor) gpu.Op {
	for _, op := range ops {
		if op == o {
			continue
		}
		for _, in := range op.Inputs() {
			if in.Root() == t.Root() {
				return op
			}
		}
		for _, w := range op.Outputs() {
			if w.Root() == t.Root() {
				return nil
			}
		}
	}
	return nil
}

// valueSlice is SLICE of attention_values.wgsl: the value dimensions one
// workgroup sums, one block of Q8_0 rounding.
const valueSlice = 32

// attentionRounds decides whether attention_values also writes its output
// rounded for the product after it, as quantize_act would round it there
// (a dispatch fewer a layer): when that product reads the whole packed
// output with Q8_0 blocks (each slice is one; packed or not) or f16
// rounding. It returns the kernel's rounding mode (3: none), the rounded
// copy, registered for the product to find, or a word bound and never
// written (c.unrounded), and the reader's row length.
func (c *compiler) attentionRounds(o *gpu.Attention) rounds {
	if c.unrounded == nil {
		c.unrounded = &gpu.Tensor{Name: "attention.unrounded", Type: tF32, Shape: gpu.Shape4(1), Kind: gpu.Activation}
	}
	none := func() rounds { return rounds{3, c.unrounded, 0} }
	out := o.Out
	if out.Kind != gpu.Activation || !out.Contiguous() || o.DV%valueSlice != 0 {
		return none()
	}
	m := c.nextReader(o, out)
	if m == nil || !m.In.Contiguous() || m.W.Type == tF32 {
		return none()
	}
	K, B := m.W.Shape[0], m.W.Shape[2]
	mode, _, err := c.productRounding(m.W.Type, K, productTokens(m))
	if err != nil || (mode != 0 && mode != 2 && mode != packedQ8) || K%valueSlice != 0 || m.In.Elements() != out.Elements() {
		return none()
	}
	key := roundKeyOf(m.In, mode, B)
	if key != roundKeyOf(out, mode, B) {
		return none()
	}
	rows := out.Elements() / K
	q := roundedTensor(out.Name, K, rows)
	c.fresh[key] = roundedAct{q, roundedLoc(K, B)}
	return rounds{mode, q, K}
}

// checkAttention adds to gpu.CheckAttention the kernels' limits: head
// sizes up to 640, caches packed and of one type.
func (c *compiler) checkAttention(o *gpu.Attention) error {
	if err := gpu.CheckAttention(o, c.g.Tokens); err != nil {
		return err
	}
	DK, DV, HKV := o.Q.Shape[0], o.DV, o.HKV
	if DK > 640 || DV > 640 {
		return fmt.Errorf("head sizes %d/%d exceed the WebGPU attention kernel's 640", DK, DV)
	}
	if err := c.checkCache(o.CacheK, "CacheK", DK*HKV); err != nil {
		return err
	}
	if !o.VFromK {
		if err := c.checkCache(o.CacheV, "CacheV", DV*HKV); err != nil {
			return err
		}
		if o.CacheV.Type != o.CacheK.Type {
			return fmt.Errorf("CacheK is %s and CacheV %s: the WebGPU kernels read both as one type", o.CacheK.Type, o.CacheV.Type)
		}
	}
	return nil
}

// attentionParams are the words every attention kernel reads
// (parts/attend.wgsl): the head sizes, query heads, tokens and key heads,
// the scores' scale, and the caches' layout: elements between key rows,
// between value rows, and between the value heads of a row.
type attentionParams struct {
	DK, DV, H, T, HKV                 int
	Scale                             float32
	KeyStride, ValueStride, ValueHead int
}

// attentionKernelParams are attention.wgsl's and attention_heads.wgsl's
// words: the query and the output.
type attentionKernelParams struct {
	attentionParams
	Q, Out loc
}

// attentionScoresParams are attention_scores.wgsl's words: the query and
// the workgroups splitting each score row (Chunks).
type attentionScoresParams struct {
	attentionParams
	Q      loc
	Chunks int
	Spread int
	// T0 is the first of the T tokens this dispatch scores: a batch too
	// large for one scores scratch takes its tokens a group at a time.
	T0 int
}

// attentionValuesParams are attention_values.wgsl's words: the output,
// the chunks of each score row, and the rounding of the output for the
// product after it (quantize_act's mode; 3: none).
type attentionValuesParams struct {
	attentionParams
	Out    loc
	Chunks int
	Round  int
	RoundK int
	T0     int // as attentionScoresParams.T0
}

// attentionWords are the attention words of a checked op.
func attentionWords(o *gpu.Attention, DK, H, T int) attentionParams {
	vstride, vhead := DK*o.HKV, DK
	if !o.VFromK {
		vstride, vhead = o.DV*o.HKV, o.DV
	}
	return attentionParams{DK: DK, DV: o.DV, H: H, T: T, HKV: o.HKV, Scale: o.Scale, KeyStride: DK * o.HKV, ValueStride: vstride, ValueHead: vhead}
}

// cacheDecoder is the element reader of an attention's caches.
func cacheDecoder(o *gpu.Attention) string {
	if o.CacheK.Type == tF16 {
		return "cache_f16"
	}
	return "cache_f32"
}

// argmaxParams are argmax.wgsl's words: rows of N values.
type argmaxParams struct {
	N       int
	In, Out loc
}

func (c *compiler) lowerArgmax(o *gpu.Argmax) error {
	if err := wantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tI32); err != nil {
		return err
	}
	V, T := o.In.Shape[0], o.In.Rows()
	if o.Out.Elements() != T {
		return fmt.Errorf("Out %s has %d elements for %d rows", o.Out.Name, o.Out.Elements(), T)
	}
	ls, err := locsOf(o.In, o.Out)
	if err != nil {
		return err
	}
	p := argmaxParams{N: V, In: ls[0], Out: ls[1]}
	return c.dispatch("argmax", "", p, false, []*gpu.Tensor{o.In, o.Out}, T)
}

// packedQ8 is quantize_act's mode 4: mode 0's rounding (8-bit blocks of
// 32, an f16 scale) written as the integers themselves, four a word, with
// each block's scale and integer sum (round_store), for the matvecs that
// take integer dot products (xpart_q8).
const packedQ8 = 4

// packedQ8K is quantize_act's mode 5: mode 1's rounding (Q8_K, blocks of
// 256, an f32 scale) as integers, four a word, with each block's scale and
// the sums of its runs of 16 (round_store), for the k-quants' integer
// matvecs (xpart_q8k).
const packedQ8K = 5

// roundMode is quantize_act's mode and block size for the inputs of the
// matvecs with weights of type wt and rows of K: gpu.ActRounding's, but
// packed for Q4_0 and Q8_0 (packedQ8) and Q4_K, Q5_K and Q6_K
// (packedQ8K), whose matvecs multiply 8-bit integers (dot4I8Packed) as
// the CPU does. The tiled product reads floats: productRounding.
func roundMode(wt gpu.Type, K int) (mode, bs int, err error) {
	mode, bs, err = gpu.ActRounding(wt, K)
	if err != nil {
		return mode, bs, err
	}
	switch wt {
	case gguf.Q4_0, gguf.Q8_0:
		mode = packedQ8
	case gguf.Q4_K, gguf.Q5_K, gguf.Q6_K:
		mode = packedQ8K
	}
	return mode, bs, nil
}

// productRounding is the rounding of the input of a plain product of T
// tokens: tiled or not as lowerMatMul decides.
func (c *compiler) productRounding(wt gpu.Type, K, T int) (mode, bs int, err error) {
	return roundingOf(wt, K, c.tiled(T))
}

// roundingOf is the rounding a product's kernel reads: tiledRounding's for
// the tiled products, else roundMode's (the matvecs).
func roundingOf(wt gpu.Type, K int, tiled bool) (mode, bs int, err error) {
	if tiled {
		return tiledRounding(wt, K)
	}
	return roundMode(wt, K)
}

// tiledRounding is the rounding the tiled product reads: packed integers
// for the types its tiles multiply in integers (tile_mul_i8): the
// matvecs' for Q4_0, Q8_0 and the k-quants, Q8_0 packed with its block
// sums for Q4_1, Q5_0 and Q5_1 (whose matvecs read floats); else
// gpu.ActRounding's floats.
func tiledRounding(wt gpu.Type, K int) (mode, bs int, err error) {
	switch wt {
	case gguf.Q4_0, gguf.Q8_0, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K:
		return roundMode(wt, K)
	case gguf.Q4_1, gguf.Q5_0, gguf.Q5_1:
		_, bs, err = gpu.ActRounding(wt, K)
		return packedQ8, bs, err
	}
	return gpu.ActRounding(wt, K)
}

// productTokens is the tokens of product m as lowerMatMul counts them.
func productTokens(m *gpu.MatMul) int {
	if m.W.Shape[2] == 1 && m.In.Shape[2] == 1 {
		return m.In.Shape[1]
	}
	return m.In.Shape[2]
}

// roundedTensor is the rounded copy of rows rows of K activations, packed
// {K, rows}.
func roundedTensor(name string, K, rows int) *gpu.Tensor {
	return &gpu.Tensor{Name: name + ".rounded", Type: gguf.F32, Shape: gpu.Shape4(K, rows), Kind: gpu.Activation}
}

// roundedLoc is where a rounded copy of a product's input {K, B, T} has
// element (k, b, t): packed rows of K, as roundedTensor lays them out.
func roundedLoc(K, B int) loc { return loc{stride: [4]uint32{1, uint32(K), uint32(K * B), 0}} }

// quantizeActParams are quantize_act.wgsl's words: the rounding's block
// size and mode, the first tensor's and the second's sides, and the
// workgroups of the first (the second's follow them).
type quantizeActParams struct {
	First, Second quantSide
	Block, Mode   int
	Groups        int
}

// quantSide is one tensor quantize_act rounds: Rows rows of K values, In's
// dim 1 (to split a row index) and where In is.
type quantSide struct {
	K, Rows, D1 int
	In          loc
}

// roundActivations adds the kernel rounding a product's input {K, B, T}
// (at location l) the way the CPU backend does for weights of type wt, as
// the tiled product reads it (tiled) or the matvecs, and returns the
// rounded, packed copy and its location; packed inputs of F32 weights
// pass through.
func (c *compiler) roundActivations(in *gpu.Tensor, l loc, wt gpu.Type, K, B, T int, tiled bool) (*gpu.Tensor, loc, error) {
	if wt == gguf.F32 && l.stride[0] == 1 {
		return in, l, nil
	}
	mode, bs, err := roundingOf(wt, K, tiled)
	if err != nil {
		return nil, l, err
	}
	key := roundKeyOf(in, mode, B)
	if r, ok := c.rounded[key]; ok {
		return r.t, r.l, nil
	}
	rows := B * T
	q := roundedTensor(in.Name, K, rows)
	// quantize_act takes a value a thread, quantize_packed (the packed
	// modes) eight, a quarter of a 32-value block: faster over a
	// prompt's rows (bench/JOURNAL.md). The tiled products are the
	// prompt's.
	kernel, per := "quantize_act", 1
	if mode >= packedQ8 && tiled {
		kernel, per = "quantize_packed", 8
	}
	groups := (rows*K/per + 255) / 256
	p := quantizeActParams{First: quantSide{K, rows, B, l}, Second: quantSide{D1: 1}, Block: bs, Mode: mode, Groups: groups}
	// Without a partner the second tensor is the first again, its
	// bindings merged into the first's and its workgroups none.
	ts := []*gpu.Tensor{in, q, in, q}
	total := groups
	pair, pl, K2 := c.roundPartner(in, mode, bs)
	if pair != nil {
		ts[2], ts[3] = pair, roundedTensor(pair.Name, K2, 1)
		p.Second = quantSide{K2, 1, 1, pl}
		total = groups + (K2/per+255)/256
	}
	if err := c.dispatch(kernel, "", p, false, ts, total); err != nil {
		return nil, l, err
	}
	ql := roundedLoc(K, B)
	c.rounded[key] = roundedAct{q, ql}
	if pair != nil {
		c.rounded[roundKeyOf(pair, mode, 1)] = roundedAct{ts[3], roundedLoc(K2, 1)}
	}
	return q, ql, nil
}

// roundPartner finds the input of the next product, when a decode step's
// op being lowered rounds in for its own product: if that product rounds
// its input {K2} alike (mode and block size) and the input is final
// already (written by no op from this one to that product's), quantize_act
// rounds it in the same dispatch. That is a shared expert's input, ready
// beside the chosen experts' since their gated units ran in one dispatch:
// a dispatch less a layer. It returns the input, its location and K2, or
// nil.
func (c *compiler) roundPartner(in *gpu.Tensor, mode, bs int) (*gpu.Tensor, loc, int) {
	if c.g.Tokens != 1 || c.op == nil {
		return nil, loc{}, 0
	}
	writes := func(op gpu.Op, t *gpu.Tensor) bool {
		for _, o := range op.Outputs() {
			if o.Root() == t.Root() {
				return true
			}
		}
		return false
	}
	for j, op := range c.rest {
		if _, byExpert := op.(*gpu.MatMulID); byExpert {
			return nil, loc{}, 0
		}
		m, ok := op.(*gpu.MatMul)
		if !ok {
			continue
		}
		K2 := m.W.Shape[0]
		x := m.In
		if x.Root() == in.Root() || m.W.Shape[2] != 1 || x.Shape != gpu.Shape4(K2, 1) {
			return nil, loc{}, 0
		}
		if md, b, err := roundMode(m.W.Type, K2); err != nil || md != mode || b != bs {
			return nil, loc{}, 0
		}
		if _, done := c.rounded[roundKeyOf(x, mode, 1)]; done || writes(c.op, x) {
			return nil, loc{}, 0
		}
		for _, before := range c.rest[:j] {
			if writes(before, x) {
				return nil, loc{}, 0
			}
		}
		l, err := locOf(x)
		// F32 weights read packed activations as they are (roundActivations).
		if err != nil || m.W.Type == gguf.F32 && l.stride[0] == 1 {
			return nil, loc{}, 0
		}
		return x, l, K2
	}
	return nil, loc{}, 0
}
