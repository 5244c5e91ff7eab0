//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// roundingRows is the rows a workgroup of matvec_shape_round.wgsl takes:
// one block of 8-bit rounding.
const roundingRows = 32

// roundingThreads is that workgroup's size (THREADS), which the adapter
// must allow.
const roundingThreads = 512

// bigGroups reports whether the adapter allows workgroups of
// matvec_shape_round.wgsl's roundingThreads.
func (c *compiler) bigGroups() bool {
	lim := c.be.limits
	return lim.MaxComputeInvocationsPerWorkgroup >= roundingThreads && lim.MaxComputeWorkgroupSizeX >= roundingThreads
}

// outputRounding is where a decode product's output goes rounded for the
// product that reads it next (round_rows.wgsl): that reader's mode, the
// rounded copy and its words.
type outputRounding struct {
	mode, bs int
	key      roundKey
	name     string // the reader's input's
	q        *gpu.Tensor
	// the reader's input within the output's buffer: offset, row stride,
	// row length and rows
	off, stride, K, rows int
}

// roundingProduct decides whether a decode product (N rows of B
// batches) also writes its output out (at lo, no epilogue past it) rounded
// for the product reading it next, as quantize_act would round it there:
// when that product rounds in 32-value Q8 blocks or to f16, reads a view
// of out whose rows are whole blocks, and the adapter allows workgroups
// of 32 rows. The ops the product's kernel takes in are skip ops of
// c.rest. It returns what to round (whose use registers the copy), or
// nil.
func (c *compiler) roundingProduct(out *gpu.Tensor, lo loc, N, B, T, parts, skip int) *outputRounding {
	if !c.be.fuses(fuseRoundingProducts) || c.g.Tokens != 1 || T != 1 || parts != 1 || !c.bigGroups() {
		return nil
	}
	if out.Kind != gpu.Activation && out.Kind != gpu.View || !out.Contiguous() || N%roundingRows != 0 || lo.off%roundingRows != 0 {
		return nil
	}
	w, in, batch := c.nextProduct(skip, out)
	if w == nil || w.Type == tF32 {
		return nil
	}
	K2 := w.Shape[0]
	mode, bs, err := roundMode(w.Type, K2)
	if err != nil || !((mode == 0 || mode == packedQ8) && bs == roundingRows || mode == 2) {
		return nil
	}
	rows, T2 := batch, in.Shape[2]
	if batch == 1 {
		T2 = in.Shape[1]
	}
	l, err := locOf(in)
	if err != nil || T2 != 1 || in.Shape[3] != 1 || l.stride[0] != 1 || K2%roundingRows != 0 {
		return nil
	}
	stride := int(l.stride[1])
	if rows == 1 {
		stride = K2
	}
	// Every value the reader takes comes from this product, in whole
	// blocks.
	first, last := int(l.off), int(l.off)+(rows-1)*stride+K2
	if stride < K2 || stride%roundingRows != 0 || first%roundingRows != 0 || first < int(lo.off) || last > int(lo.off)+N*B {
		return nil
	}
	key := roundKeyOf(in, mode, batch)
	if _, done := c.rounded[key]; done {
		return nil
	}
	return &outputRounding{mode: mode, bs: bs, key: key, name: in.Name, off: first, stride: stride, K: K2, rows: rows}
}

// nextProduct is the weights, input and batch (B of a batched product,
// input rows per token of one by expert id) of the product reading t
// first in c.rest[skip:], or nils where another op reads or writes t
// before one does.
func (c *compiler) nextProduct(skip int, t *gpu.Tensor) (w, in *gpu.Tensor, batch int) {
	switch m := c.firstReader(c.rest[skip:], nil, t).(type) {
	case *gpu.MatMul:
		if m.In.Root() == t.Root() {
			return m.W, m.In, m.W.Shape[2]
		}
	case *gpu.MatMulID:
		if m.In.Root() == t.Root() {
			return m.W, m.In, m.In.Shape[1]
		}
	}
	return nil, nil, 0
}

// use makes the rounded copy and registers it for the reader.
func (r *outputRounding) use(c *compiler) {
	r.q = roundedTensor(r.name, r.K, r.rows)
	c.fresh[r.key] = roundedAct{r.q, roundedLoc(r.K, r.rows)}
}

// roundRows are the words of one rounded output (parts/round_rows.wgsl):
// quantize_act's mode, and the reader's offset, row stride, row length
// and rows within the output.
type roundRows struct {
	Mode, Off, Stride, K, Rows int
}

// words are r's round_rows words.
func (r *outputRounding) words() roundRows {
	return roundRows{r.mode, r.off, r.stride, r.K, r.rows}
}

// matmulRoundParams are matmul_round.wgsl's words: the rounding of the
// output and the byte of W's binding where row 0 starts.
type matmulRoundParams struct {
	productParams
	Round roundRows
	Base  int
}

// lowerRoundingProduct adds the matmul_round dispatch of the decode
// product o: its input in (at li), output at lo, weights of decoder dec
// bound as pt.
func (c *compiler) lowerRoundingProduct(o *gpu.MatMul, r *outputRounding, in *gpu.Tensor, li, lo loc, dec string, K, N, B, rb int, pt part) error {
	r.use(c)
	p := matmulRoundParams{productParams{K, N, B, 1, rb, li, lo}, r.words(), pt.base}
	return c.dispatchPart("matmul_round", dec, p, false, []*gpu.Tensor{o.W, in, o.Out, r.q}, pt, N/roundingRows*B)
}
