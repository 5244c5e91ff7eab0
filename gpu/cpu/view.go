package cpu

import (
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

const (
	tF32 = gguf.F32
	tF16 = gguf.F16
	tI32 = gguf.I32
)

// rows reads and writes the rows (Shape[0] elements) of an F32 or I32
// tensor with any byte strides. Rows of dense tensors are used in place;
// strided rows go through a per-worker temporary.
type rows struct {
	mem    []byte
	sh, st [4]int
	dense  bool
	tmp    [][]float32
}

// newRows resolves t (call from a kernel's build function).
func (c *compiler) rows(t *gpu.Tensor) *rows {
	r := &rows{mem: c.mem(t), sh: t.Shape, st: t.Stride, dense: t.Stride[0] == 4}
	if !r.dense {
		r.tmp = make([][]float32, c.nth)
		for i := range r.tmp {
			r.tmp[i] = make([]float32, t.Shape[0])
		}
	}
	return r
}

// off is the byte offset of row i (rows counted in Shape[1..3] order).
func (r *rows) off(i int) int {
	i1 := i % r.sh[1]
	i2 := i / r.sh[1] % r.sh[2]
	i3 := i / (r.sh[1] * r.sh[2])
	return i1*r.st[1] + i2*r.st[2] + i3*r.st[3]
}

// get returns row i for reading.
func (r *rows) get(w, i int) []float32 {
	o := r.off(i)
	if r.dense {
		return f32s(r.mem[o:], r.sh[0])
	}
	t := r.tmp[w]
	for j := range t {
		t[j] = f32s(r.mem[o+j*r.st[0]:], 1)[0]
	}
	return t
}

// out returns the row to write (dense tensors only: outputs are checked
// dense at compile time, except for Copy which scatters itself).
func (r *rows) out(i int) []float32 { return f32s(r.mem[r.off(i):], r.sh[0]) }

func (r *rows) i32(i int) []int32 { return i32s(r.mem[r.off(i):], r.sh[0]) }

// The operand checks are package gpu's, shared with every backend.
var (
	need      = gpu.Need
	wantType  = gpu.WantType
	wantShape = gpu.WantShape
	wantDense = gpu.WantDense
)

func refs(ts ...*gpu.Tensor) []ref {
	var out []ref
	for _, t := range ts {
		if t != nil {
			out = append(out, ref{t: t})
		}
	}
	return out
}
