package cpu

import (
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// serialElems is the size below which an elementwise op runs on one
// worker: splitting a decode-sized vector costs more than it saves.
const serialElems = 1 << 15

// rowKernel adds a kernel calling body(w, i) for every row i of n rows of
// rowLen elements, serial when small and split across workers otherwise.
func (c *compiler) rowKernel(name string, n, rowLen int, reads, writes []ref, body func() func(w, i int)) {
	k := &kernel{name: name, reads: reads, writes: writes, serial: n*rowLen < serialElems || n == 1}
	sp := c.newSplitter()
	chunk := chunkFor(n, c.nth, 1)
	k.build = func() func(ith, nth int) {
		f := body()
		if k.serial {
			return func(int, int) {
				for i := 0; i < n; i++ {
					f(0, i)
				}
			}
		}
		return func(ith, _ int) {
			sp.each(n, chunk, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					f(ith, i)
				}
			})
		}
	}
	c.add(k)
}

func sameShape(a, b *gpu.Tensor, what string) error {
	if a.Shape != b.Shape {
		return fmt.Errorf("%s: shapes %v and %v differ", what, a.Shape, b.Shape)
	}
	return nil
}

func (c *compiler) lowerAdd(o *gpu.Add) error {
	if err := checkBinary(o.A, o.B, o.Out); err != nil {
		return err
	}
	if o.B.Shape == o.Out.Shape {
		c.rowKernel("add", o.Out.Rows(), o.Out.Shape[0], refs(o.A, o.B), refs(o.Out), func() func(w, i int) {
			a, b, out := c.rows(o.A), c.rows(o.B), c.rows(o.Out)
			return func(w, i int) {
				x, y, z := a.get(w, i), b.get(w, i), out.out(i)
				y = y[:len(x)]
				z = z[:len(x)]
				for j := range x {
					z[j] = x[j] + y[j]
				}
			}
		})
		return nil
	}
	c.broadcastKernel("add", o.A, o.B, o.Out, true)
	return nil
}

func (c *compiler) lowerMul(o *gpu.Mul) error {
	if err := checkBinary(o.A, o.B, o.Out); err != nil {
		return err
	}
	c.broadcastKernel("mul", o.A, o.B, o.Out, false)
	return nil
}

// checkBinary checks Add's and Mul's operands: F32, Out of A's shape with
// packed rows, B of A's shape or 1 along any dimension (broadcast).
func checkBinary(a, b, out *gpu.Tensor) error {
	for _, e := range []error{wantType(a, "A", tF32), wantType(b, "B", tF32), wantType(out, "Out", tF32)} {
		if e != nil {
			return e
		}
	}
	if err := sameShape(a, out, "A and Out"); err != nil {
		return err
	}
	for d := 0; d < 4; d++ {
		if b.Shape[d] != a.Shape[d] && b.Shape[d] != 1 {
			return fmt.Errorf("B %v does not broadcast to A %v", b.Shape, a.Shape)
		}
	}
	return wantDense(out, "Out")
}

// broadcastKernel adds a kernel writing out = a + b (add) or a · b
// element by element, b read with its own shape wrapped around a's
// (broadcast where it is 1).
func (c *compiler) broadcastKernel(name string, ta, tb, tout *gpu.Tensor, add bool) {
	sh, bsh := tout.Shape, tb.Shape
	c.rowKernel(name, tout.Rows(), sh[0], refs(ta, tb), refs(tout), func() func(w, i int) {
		a, out := c.rows(ta), c.rows(tout)
		bm, bst := c.mem(tb), tb.Stride
		var tmp [][]float32 // per worker: a strided row of b, gathered
		if bsh[0] > 1 && bst[0] != 4 {
			tmp = make([][]float32, c.nth)
			for i := range tmp {
				tmp[i] = make([]float32, bsh[0])
			}
		}
		return func(w, i int) {
			x, z := a.get(w, i), out.out(i)
			i1, i2, i3 := i%sh[1], i/sh[1]%sh[2], i/(sh[1]*sh[2])
			bo := (i1%bsh[1])*bst[1] + (i2%bsh[2])*bst[2] + (i3%bsh[3])*bst[3]
			z = z[:len(x)]
			if bsh[0] == 1 {
				s := f32s(bm[bo:], 1)[0]
				if add {
					for j := range x {
						z[j] = x[j] + s
					}
				} else {
					for j := range x {
						z[j] = x[j] * s
					}
				}
				return
			}
			var y []float32
			if tmp == nil {
				y = f32s(bm[bo:], len(x))
			} else {
				y = tmp[w]
				for j := range y {
					y[j] = f32s(bm[bo+j*bst[0]:], 1)[0]
				}
			}
			y = y[:len(x)]
			if add {
				for j := range x {
					z[j] = x[j] + y[j]
				}
			} else {
				for j := range x {
					z[j] = x[j] * y[j]
				}
			}
		}
	})
}

func (c *compiler) lowerScale(o *gpu.Scale) error {
	if err := wantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	if err := sameShape(o.In, o.Out, "In and Out"); err != nil {
		return err
	}
	if err := wantDense(o.Out, "Out"); err != nil {
		return err
	}
	s := o.S
	c.rowKernel("scale", o.Out.Rows(), o.Out.Shape[0], refs(o.In), refs(o.Out), func() func(w, i int) {
		in, out := c.rows(o.In), c.rows(o.Out)
		return func(w, i int) {
			x, z := in.get(w, i), out.out(i)
			for j := range x {
				z[j] = x[j] * s
			}
		}
	})
	return nil
}

func (c *compiler) lowerSwiGLU(o *gpu.SwiGLU) error {
	for _, e := range []error{wantType(o.Gate, "Gate", tF32), wantType(o.Up, "Up", tF32), wantType(o.Out, "Out", tF32)} {
		if e != nil {
			return e
		}
	}
	if err := sameShape(o.Gate, o.Out, "Gate and Out"); err != nil {
		return err
	}
	if err := sameShape(o.Up, o.Out, "Up and Out"); err != nil {
		return err
	}
	if err := wantDense(o.Out, "Out"); err != nil {
		return err
	}
	c.rowKernel("swiglu", o.Out.Rows(), o.Out.Shape[0], refs(o.Gate, o.Up), refs(o.Out), func() func(w, i int) {
		g, u, out := c.rows(o.Gate), c.rows(o.Up), c.rows(o.Out)
		return func(w, i int) {
			swigluRow(g.get(w, i), u.get(w, i), out.out(i))
		}
	})
	return nil
}

// lowerCopy converts between F32 and F16 and between layouts. Equal shapes
// copy row by row; other shapes of the same element count copy in logical
// element order.
func (c *compiler) lowerCopy(o *gpu.Copy) error {
	if err := wantType(o.In, "In", tF32, tF16); err != nil { // F32, F16
		return err
	}
	if err := wantType(o.Out, "Out", tF32, tF16); err != nil {
		return err
	}
	if o.In.Elements() != o.Out.Elements() {
		return fmt.Errorf("In %v and Out %v hold different numbers of elements", o.In.Shape, o.Out.Shape)
	}
	in, out := o.In, o.Out
	if in.Shape == out.Shape {
		c.rowKernel("copy", out.Rows(), out.Shape[0], refs(in), refs(out), func() func(w, i int) {
			src, dst := c.mem(in), c.mem(out)
			rs, rd := &rows{sh: in.Shape, st: in.Stride}, &rows{sh: out.Shape, st: out.Stride}
			return func(w, i int) {
				so, do := rs.off(i), rd.off(i)
				for j := 0; j < in.Shape[0]; j++ {
					putElem(dst, out.Type, do+j*out.Stride[0], getElem(src, in.Type, so+j*in.Stride[0]))
				}
			}
		})
		return nil
	}
	n := in.Elements()
	c.add(&kernel{name: "copy", serial: true, reads: refs(in), writes: refs(out), build: func() func(int, int) {
		src, dst := c.mem(in), c.mem(out)
		return func(int, int) {
			for e := 0; e < n; e++ {
				putElem(dst, out.Type, elemOff(out, e), getElem(src, in.Type, elemOff(in, e)))
			}
		}
	}})
	return nil
}

// elemOff is the byte offset of the e-th element in logical order.
func elemOff(t *gpu.Tensor, e int) int {
	o := 0
	for d := 0; d < 4; d++ {
		o += e % t.Shape[d] * t.Stride[d]
		e /= t.Shape[d]
	}
	return o
}

func getElem(b []byte, t gpu.Type, off int) float32 {
	if t == tF16 {
		return f16Table[u16s(b[off:], 1)[0]]
	}
	return f32s(b[off:], 1)[0]
}

func putElem(b []byte, t gpu.Type, off int, v float32) {
	if t == tF16 {
		u16s(b[off:], 1)[0] = quant.F32ToF16(v)
		return
	}
	f32s(b[off:], 1)[0] = v
}

func (c *compiler) lowerRMSNorm(o *gpu.RMSNorm) error {
	if err := wantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	if err := sameShape(o.In, o.Out, "In and Out"); err != nil {
		return err
	}
	if err := wantDense(o.Out, "Out"); err != nil {
		return err
	}
	if !(o.Eps >= 0) {
		return fmt.Errorf("eps %g is negative", o.Eps)
	}
	n := o.In.Shape[0]
	var wconst []float32 // a read-only weight of another type, widened once
	if o.Weight != nil {
		if o.Weight.Elements() != n {
			return fmt.Errorf("Weight %s has %d elements, want %d", o.Weight.Name, o.Weight.Elements(), n)
		}
		if o.Weight.Type != tF32 || o.Weight.Stride[0] != 4 {
			r := o.Weight.Root()
			if o.Weight.Kind != gpu.External || !r.Buf.(*buffer).readOnly || !quant.CanDequantize(o.Weight.Type) {
				return fmt.Errorf("Weight %s must be F32 with packed elements, or a weight buffer", o.Weight.Name)
			}
			wconst = make([]float32, n)
			if err := quant.Dequantize(o.Weight.Type, r.Buf.(*buffer).data, wconst); err != nil {
				return fmt.Errorf("Weight %s: %w", o.Weight.Name, err)
			}
		}
	}
	eps := o.Eps
	c.rowKernel("rmsnorm", o.Out.Rows(), n, refs(o.In, o.Weight), refs(o.Out), func() func(w, i int) {
		in, out := c.rows(o.In), c.rows(o.Out)
		wt := wconst
		if o.Weight != nil && wt == nil {
			wt = f32s(c.mem(o.Weight), n)
		}
		return func(w, i int) {
			x, y := in.get(w, i), out.out(i)
			scale := rmsScale(x, eps)
			if wt == nil {
				for j := range x {
					y[j] = x[j] * scale
				}
				return
			}
			wt := wt[:len(x)]
			for j := range x {
				y[j] = x[j] * scale * wt[j]
			}
		}
	})
	return nil
}

// rmsScale is 1/sqrt(mean(x²)+eps) as ggml computes it: float32 squares
// summed in double precision (quant.SumSquares4's four partial sums, which
// change the double sum only below float32 resolution), the mean rounded
// to float32.
func rmsScale(x []float32, eps float32) float32 {
	mean := float32(quant.SumSquares4(x) / float64(len(x)))
	return 1 / float32(math.Sqrt(float64(mean+eps)))
}

func (c *compiler) lowerEmbed(o *gpu.Embed) error {
	for _, e := range []error{need(o.Table, "Table"), wantType(o.Tokens, "Tokens", tI32), wantType(o.Out, "Out", tF32)} {
		if e != nil {
			return e
		}
	}
	tb := o.Table
	if !quant.CanDequantize(tb.Type) {
		return fmt.Errorf("Table %s has type %s, which cannot be dequantized", tb.Name, tb.Type)
	}
	D, V, T := tb.Shape[0], tb.Shape[1], o.Tokens.Elements()
	if tb.Shape[2] != 1 || tb.Shape[3] != 1 || tb.Stride[0] != tb.Type.TypeSize() {
		return fmt.Errorf("Table %s must be a {D, V} matrix with packed rows, got %v", tb.Name, tb.Shape)
	}
	if o.Tokens.Shape != gpu.Shape4(T) {
		return fmt.Errorf("Tokens %s has shape %v, want {T}", o.Tokens.Name, o.Tokens.Shape)
	}
	if err := wantShape(o.Out, "Out", gpu.Shape4(D, T)); err != nil {
		return err
	}
	if err := wantDense(o.Out, "Out"); err != nil {
		return err
	}
	p := c.p
	c.rowKernel("embed", T, D, refs(tb, o.Tokens), refs(o.Out), func() func(w, i int) {
		tab, ids, out := c.mem(tb), c.rows(o.Tokens), c.rows(o.Out)
		rb, st := tb.Type.RowBytes(D), tb.Stride[1]
		row := interleavedRows(tb, c.nth)
		return func(w, t int) {
			id := int(i32s(ids.mem[t*ids.st[0]:], 1)[0])
			y := out.out(t)
			if id < 0 || id >= V {
				p.fail(fmt.Errorf("embed: token id %d is outside the vocabulary of %d", id, V))
				clear(y)
				return
			}
			if row != nil {
				quant.Dequantize(tb.Type, row(w, id), y)
				return
			}
			quant.Dequantize(tb.Type, tab[id*st:id*st+rb], y)
		}
	})
	return nil
}
