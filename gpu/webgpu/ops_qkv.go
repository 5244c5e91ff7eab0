//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// qkvRun matches the product o followed by one or two more products of the
// same input with weights of o's row length, the last two of one shape: an
// attention block's query, key and value projections, which matmul_qkv
// computes in one dispatch. The keys' weights are of o's type; the values'
// may be of another that rounds the input alike (Q6_K values beside Q4_K
// queries and keys in the Q4_K_M mix), else they stay a product apart.
// Decode steps only (T = 1): larger steps take the tiled products. It returns the products, o first, or nil. in is o's
// (rounded) input; B and parts, o's batch and the bindings its weights
// need.
func (c *compiler) qkvRun(o *gpu.MatMul, in *gpu.Tensor, B, T, parts int) []*gpu.MatMul {
	if B != 1 || T != 1 || parts != 1 {
		return nil
	}
	run := []*gpu.MatMul{o}
	for _, op := range c.rest {
		m, ok := op.(*gpu.MatMul)
		if !ok || len(run) == 3 || m.In != o.In || !qkvTypes(o.W.Type, m.W.Type, len(run)) || m.W.Shape[0] != o.W.Shape[0] ||
			m.W.Shape[2] != 1 || !m.W.Contiguous() || (len(run) == 2 && m.W.Shape != run[1].W.Shape) {
			break
		}
		if ps, err := c.rowParts(m.W, m.W.Type.RowBytes(m.W.Shape[0]), m.W.Shape[1]); err != nil || len(ps) != 1 {
			break
		}
		run = append(run, m)
	}
	if len(run) < 2 {
		return nil
	}
	// Each output has its own writable binding while the weights and the
	// input are read: none may share memory with those or another output.
	read := []*gpu.Tensor{o.In, in}
	for _, m := range run {
		read = append(read, m.W)
	}
	for i, m := range run {
		t := m.Out
		if t.Type != tF32 || t.Shape != gpu.Shape4(m.W.Shape[1], 1) {
			return nil
		}
		if _, err := locOf(t); err != nil {
			return nil
		}
		for _, u := range read {
			if t.Root() == u.Root() {
				return nil
			}
		}
		for _, p := range run[:i] {
			if t.Root() == p.Out.Root() {
				return nil
			}
		}
	}
	return run
}

// qkvTypes reports whether matmul_qkv reads weights of type t as its
// i-th (1 keys, 2 values) beside queries of type q: keys of q's type,
// values of any type with a decoder that rounds the input as q does.
func qkvTypes(q, t gpu.Type, i int) bool {
	if t == q {
		return true
	}
	if i != 2 {
		return false
	}
	if _, err := decoder(t); err != nil {
		return false
	}
	// K is a whole number of both types' blocks where it is of either's:
	// the checks on o's and m's shapes come before any lowering.
	mq, bq, eq := roundMode(q, 256)
	mt, bt, et := roundMode(t, 256)
	return eq == nil && et == nil && mq == mt && bq == bt
}

// qkvParams are matmul_qkv.wgsl's words: rows of K values (RowBytes bytes
// in W's and V's layout, RowBytesU in U's), NQ query rows and NK key and
// value rows, the input, the three outputs, Count the products (2: no
// values).
type qkvParams struct {
	K, NQ, NK, T, RowBytes int
	In                     loc
	OutQ, OutK, OutV       loc
	Count, RowBytesU       int
}

// lowerQKV adds the matmul_qkv dispatch of a qkvRun; li is the input's
// location, dec the weights' decoder.
func (c *compiler) lowerQKV(run []*gpu.MatMul, in *gpu.Tensor, li loc, dec string) error {
	q := run[0]
	K, rb := q.W.Shape[0], q.W.Type.RowBytes(q.W.Shape[0])
	NQ, NK := q.W.Shape[1], run[1].W.Shape[1]
	outs, ws, ls, err := qkvOperands(run)
	if err != nil {
		return err
	}
	rbU := rb
	if len(run) == 3 && ws[2].Type != q.W.Type {
		dv, err := decoder(ws[2].Type)
		if err != nil {
			return err
		}
		dec += "+" + dv
		rbU = ws[2].Type.RowBytes(K)
	}
	p := qkvParams{K: K, NQ: NQ, NK: NK, T: 1, RowBytes: rb, In: li, OutQ: ls[0], OutK: ls[1], OutV: ls[2], Count: len(run), RowBytesU: rbU}
	c.fused = len(run) - 1
	return c.dispatch("matmul_qkv", dec, p, false, []*gpu.Tensor{ws[0], in, outs[0], outs[1], outs[2], ws[1], ws[2]}, rowGroups(NQ)+(len(run)-1)*rowGroups(NK))
}

// qkvOperands are a qkvRun's outputs and weights, three of each (the keys'
// twice where there are no values), and the outputs' locations.
func qkvOperands(run []*gpu.MatMul) (outs, ws []*gpu.Tensor, ls []loc, err error) {
	outs = []*gpu.Tensor{run[0].Out, run[1].Out, run[1].Out}
	ws = []*gpu.Tensor{run[0].W, run[1].W, run[1].W}
	if len(run) == 3 {
		outs[2], ws[2] = run[2].Out, run[2].W
	}
	ls, err = locsOf(outs...)
	return outs, ws, ls, err
}
