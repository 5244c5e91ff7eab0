package cpu

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// Matrix products. Activations are brought into the weight type's
// activation format once per input (8-bit blocks for quantized weights,
// plain floats for F32/F16/BF16) by a quantize kernel, shared by every
// product reading the same input (q, k and v; gate and up). The product
// kernel then streams weight rows in contiguous chunks; with several
// tokens it takes every token's dot against a block of rows while those
// rows are in cache, so the weights are read from memory once per step.

// rowBlock is the number of weight rows kept hot across the tokens of a
// prefill step (16 rows of a 4096-wide Q4_K matrix are 36 KiB).
const rowBlock = 16

type quantKey struct {
	in *gpu.Tensor
	at gguf.TensorType
	// tiles for interleaved Q4_0 (ops_matmul_interleaved.go), of one
	// column each with ones
	tiled, ones bool
	// side: the weight type whose side data (quant.ColAux) follows the
	// rows, if any: types sharing an activation type make different side
	// data (Q4_0's sums, Q8_0's values).
	side gguf.TensorType
}

type quantEntry struct {
	s       *scratch
	version int
	aux     bool // made for four-column kernels (with their side data)
}

// activations returns the memory the product kernels read for input in
// against weights of type wt, and a resolver giving column j's bytes
// (j counts In's rows) once memory is planned. Where a multi-column
// kernel for wt reads side data (quant.ColsAux: VecDotCols', or the
// interleaved Q8_0 ones) and In has four columns or more, aux resolves each
// column's side data (quant.ColAux, possibly none), kept after the
// activations in the same scratch; otherwise aux is nil.
func (c *compiler) activations(in *gpu.Tensor, wt gguf.TensorType) (r ref, act, aux func() func(j int) []byte) {
	at := quant.ActType(wt)
	K := in.Shape[0]
	ab := at.RowBytes(K)
	if at == tF32 && in.Stride[0] == 4 && wt != gguf.F16 && wt != gguf.BF16 {
		return ref{t: in}, func() func(int) []byte {
			r := c.rows(in)
			return func(j int) []byte { return bytesOf(r.get(0, j)) }
		}, nil
	}
	root := in.Root()
	key := quantKey{in: in, at: at}
	cols := in.Rows() >= quant.Cols && quant.ColsAux(wt)
	xb := 0
	if cols {
		xb = quant.ColAuxBytes(wt, K)
	}
	if xb > 0 {
		key.side = wt
	}
	e := c.quants[key]
	if e == nil || e.version != c.version[root] || (cols && !e.aux) {
		e = &quantEntry{s: c.newScratch((ab + xb) * in.Rows()), version: c.version[root], aux: cols}
		c.quants[key] = e
		c.addQuantize(in, wt, e.s, xb)
	}
	s := e.s
	act = func() func(int) []byte {
		return func(j int) []byte { return s.mem[j*ab : (j+1)*ab] }
	}
	if e.aux {
		xb = quant.ColAuxBytes(wt, K)
		base := ab * in.Rows()
		aux = func() func(int) []byte {
			return func(j int) []byte { return s.mem[base+j*xb : base+(j+1)*xb] }
		}
	}
	return ref{s: s}, act, aux
}

// addQuantize adds the kernel writing every row of in, quantized for
// weights of type wt, to s, each row's side data of xb bytes (none when
// xb is 0) after all the rows.
func (c *compiler) addQuantize(in *gpu.Tensor, wt gguf.TensorType, s *scratch, xb int) {
	at := quant.ActType(wt)
	K, cols := in.Shape[0], in.Rows()
	bs := at.BlockSize()
	nb, ab := K/bs, at.RowBytes(K)
	// Units are runs of blocks of one column, about four per worker; with
	// side data a run holds whole groups of four blocks.
	perCol := min(nb, max(1, (4*c.nth+cols-1)/cols))
	segBlocks := (nb + perCol - 1) / perCol
	if xb > 0 {
		segBlocks = (segBlocks + 3) &^ 3
	}
	perCol = (nb + segBlocks - 1) / segBlocks
	units := cols * perCol
	k := &kernel{name: "quantize", reads: refs(in), writes: []ref{{s: s}}, serial: cols*K < 4096}
	sp := c.newSplitter()
	k.build = func() func(ith, nth int) {
		r := c.rows(in)
		do := func(w, u int) {
			col, seg := u/perCol, u%perCol
			b0 := seg * segBlocks
			b1 := min(nb, b0+segBlocks)
			x := r.get(w, col)[b0*bs : b1*bs]
			row := s.mem[col*ab : (col+1)*ab]
			quant.QuantizeAct(wt, x, row[at.RowBytes(b0*bs):at.RowBytes(b1*bs)])
			if xb > 0 {
				base := ab*cols + col*xb
				quant.ColAux(wt, row, b0, b1, s.mem[base:base+xb])
			}
		}
		return eachUnit(k.serial, units, sp, do)
	}
	c.add(k)
}

// checkWeight validates a weight matrix operand {K, N, B} of a product.
func checkWeight(w *gpu.Tensor) error {
	if err := need(w, "W"); err != nil {
		return err
	}
	if !quant.DotSupported(w.Type) {
		return fmt.Errorf("W %s has type %s, which has no dot kernel", w.Name, w.Type)
	}
	if w.Shape[3] != 1 {
		return fmt.Errorf("W %s has shape %v: at most three dimensions", w.Name, w.Shape)
	}
	if w.Stride[0] != w.Type.TypeSize() || w.Stride[1] != w.Type.RowBytes(w.Shape[0]) {
		return fmt.Errorf("W %s must have packed consecutive rows (strides %v)", w.Name, w.Stride)
	}
	return nil
}

func (c *compiler) lowerMatMul(o *gpu.MatMul) error {
	if err := checkWeight(o.W); err != nil {
		return err
	}
	if err := wantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	K, N, B := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	// With one matrix the batch dimension may be left out: In {K, T}.
	T := o.In.Shape[2]
	outShape := gpu.Shape4(N, B, T)
	if B == 1 && o.In.Shape[2] == 1 {
		T = o.In.Shape[1]
		outShape = gpu.Shape4(N, T)
	}
	if o.In.Shape[0] != K || o.In.Shape[3] != 1 || (B > 1 && o.In.Shape[1] != B) {
		return fmt.Errorf("In %s has shape %v, want {%d, %d, T} to match W %v", o.In.Name, o.In.Shape, K, B, o.W.Shape)
	}
	if o.Out.Shape != outShape && o.Out.Shape != gpu.Shape4(N, B, T) {
		return fmt.Errorf("Out %s has shape %v, want %v", o.Out.Name, o.Out.Shape, outShape)
	}
	if err := wantDense(o.Out, "Out"); err != nil {
		return err
	}
	weights, wt := c.mem, o.W.Type
	// Interleaved Q8_0 (groups of four rows) keeps this lowering, with its
	// kernels and row ranges in whole groups.
	x4 := isInterleaved(o.W) && B == 1 && wt == gguf.Q8_0
	if isInterleaved(o.W) && !x4 {
		if B == 1 {
			c.lowerMatMulInterleaved(o, K, N, T)
			return nil
		}
		weights = func(w *gpu.Tensor) []byte { return w.Buf.(*buffer).plain() }
	}
	dotCols := quant.VecDotCols
	if x4 {
		dotCols = quant.VecDotColsQ8_0x4
	}
	actRef, actFn, auxFn := c.activations(o.In, wt)
	rb, wst := wt.RowBytes(K), o.W.Stride[2]
	// The summation order follows the kernel llama.cpp would pick for this
	// shape (a batch or one token, rows in fours or eights). It sends a
	// strided batch against F32 weights to its single-token kernel (only
	// other types copy such a batch into a packed buffer first). Tokens
	// of different sequences sum as each would alone.
	batch := T
	if (wt == tF32 && !o.In.Contiguous()) || c.g.Independent {
		batch = 1
	}
	// Four columns at once only where that sums as RowsKernel would, with
	// the side data its kernel reads (F32 activations need none).
	cols := B == 1 && (auxFn != nil || quant.ColAuxBytes(wt, K) == 0) && quant.ColsFor(wt, true, N, batch)
	if x4 {
		cols = colsQ8_0x4(o.W) && auxFn != nil // same sums as its rows kernel
	}
	chunk := chunkFor(N, c.nth, rowBlock)
	if x4 {
		chunk = (chunk + 3) &^ 3
	}
	if B > 1 {
		chunk = chunkFor(N*B, c.nth, rowBlock)
		chunk = min(chunk, N)
	}
	perB := (N + chunk - 1) / chunk
	units := B * perB
	k := &kernel{name: "matmul", reads: []ref{{t: o.W}, actRef}, writes: refs(o.Out),
		serial: N*B*T*rb < 1<<15}
	sp := c.newSplitter()
	k.build = func() func(ith, nth int) {
		wm, act, out := weights(o.W), actFn(), c.rows(o.Out)
		var aux func(int) []byte
		if cols && auxFn != nil {
			aux = auxFn()
		}
		do := func(_, u int) {
			b, r0 := u/perB, u%perB*chunk
			r1 := min(N, r0+chunk)
			base := b * wst
			for s := r0; s < r1; s += rowBlock {
				e := min(r1, s+rowBlock)
				if T == 1 {
					e = r1
				}
				wrows := wm[base+s*rb : base+e*rb]
				t := 0
				for ; cols && t+quant.Cols <= T; t += quant.Cols {
					var acts, auxs [quant.Cols][]byte
					var outs [quant.Cols][]float32
					for c := range acts {
						acts[c], outs[c] = act(t+c), out.out(t + c)[s:e]
						if aux != nil {
							auxs[c] = aux(t + c)
						}
					}
					dotCols(wt, wrows, e-s, acts, auxs, K, outs)
				}
				for ; t < T; t++ {
					j := b + B*t
					dot := quant.RowsKernel(wt, B == 1, N, batch, t)
					if x4 {
						dot = quant.VecDotRowsQ8_0x4
					}
					dot(wt, wrows, e-s, act(j), K, out.out(j)[s:e])
				}
				s = e - rowBlock
			}
		}
		return eachUnit(k.serial, units, sp, do)
	}
	c.add(k)
	return nil
}
