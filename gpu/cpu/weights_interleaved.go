package cpu

import (
	"sync"

	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// Interleaved weights. Like llama.cpp's CPU backend, which repacks Q4_0
// and Q4_K matrices at load into its "repack" buffers, the backend stores
// a copied Q4_0 or Q4_K matrix with sixteen rows side by side (quant's
// interleaved layouts) when this CPU has the kernels for it: products then
// take several tokens per unpacked block with no horizontal sums, and
// compute the same float sums as llama.cpp's repacked kernels (which it
// runs for matrices and for stacks of expert matrices alike). Each matrix
// of a stack {K, N, E} is interleaved on its own. A copied Q8_0 matrix
// whose rows come in fours is stored four rows block by block (quant's
// q8_0_interleaved.go): llama.cpp does not repack Q8_0 on x86, but the
// layout changes no sum, only how memory is streamed; its products keep
// the plain lowering with interleaved kernels. Mapped weights stay as
// the file has them, and so do matrices llama.cpp would not repack (rows
// not a multiple of 8). llama.cpp keeps a stack that a batched MatMul
// reads (MLA's per-head projections) in GGUF order too; Weight cannot tell
// it from experts, so such a product reads a copy in GGUF order (plain),
// made once.
//
// Only MatMul and MatMulID (as W) and Embed (as Table) read an interleaved
// buffer, and only whole (not through a view); Read gives the bytes back
// in GGUF order.

// interleaves reports whether Weight stores a weight of typ and shape
// interleaved.
func interleaves(b *Backend, typ gpu.Type, shape [4]int) bool {
	return !b.mapped && shape[3] == 1 && quant.Interleaves(typ, shape[1])
}

// matrixBytes is the size of one interleaved matrix of a weight of typ
// and shape.
func matrixBytes(typ gpu.Type, shape [4]int) int {
	return quant.InterleavedBytes(typ, shape[1], shape[0])
}

func interleavedWeight(b *Backend, name string, typ gpu.Type, shape [4]int, data []byte) *buffer {
	mb, src := matrixBytes(typ, shape), typ.RowBytes(shape[0])*shape[1]
	c := weightBytes(shape[2] * mb)
	full := false
	for e := 0; e < shape[2]; e++ {
		full = quant.Interleave(typ, c[e*mb:(e+1)*mb], data[e*src:(e+1)*src], shape[1], shape[0]) || full
	}
	return &buffer{name: name, typ: typ, shape: shape, data: c, readOnly: true, owner: b, interleaved: &plainCopy{}, fullRange: full}
}

// plainCopy is an interleaved weight's bytes in GGUF order, made on first
// use.
type plainCopy struct {
	once sync.Once
	data []byte
}

// plain returns the interleaved weight b in GGUF order.
func (b *buffer) plain() []byte {
	b.interleaved.once.Do(func() {
		p := weightBytes(gpu.Bytes(b.typ, b.shape))
		b.readInterleaved(0, p)
		b.interleaved.data = p
	})
	return b.interleaved.data
}

// row writes row i of an interleaved weight (rows counted across its
// matrices) to dst in GGUF order.
func (b *buffer) row(dst []byte, i int) {
	e, r := i/b.shape[1], i%b.shape[1]
	mb := matrixBytes(b.typ, b.shape)
	quant.InterleavedRow(b.typ, dst, b.data[e*mb:(e+1)*mb], b.shape[0], r)
}

// readInterleaved copies bytes [off, off+len(dst)) of the weight in GGUF
// order out of an interleaved buffer.
func (b *buffer) readInterleaved(off int, dst []byte) {
	rb := b.typ.RowBytes(b.shape[0])
	row := make([]byte, rb)
	for len(dst) > 0 {
		b.row(row, off/rb)
		k := copy(dst, row[off%rb:])
		dst, off = dst[k:], off+k
	}
}

// colsQ8_0x4 reports whether products by the interleaved Q8_0 weight t
// take several tokens at once (quant.ColsQ8_0x4 of its range).
func colsQ8_0x4(t *gpu.Tensor) bool {
	return quant.ColsQ8_0x4(t.Root().Buf.(*buffer).fullRange)
}

// isInterleaved reports whether t is (a view of) an interleaved weight.
func isInterleaved(t *gpu.Tensor) bool {
	r := t.Root()
	if r.Kind != gpu.External {
		return false
	}
	b, ok := r.Buf.(*buffer)
	return ok && b.interleaved != nil
}

// readsInterleaved reports whether op knows the interleaved layout of its
// input t.
func readsInterleaved(op gpu.Op, t *gpu.Tensor) bool {
	if t.Kind != gpu.External {
		return false
	}
	switch o := op.(type) {
	case *gpu.MatMul:
		return t == o.W
	case *gpu.MatMulID:
		return t == o.W
	case *gpu.Embed:
		return t == o.Table
	}
	return false
}

// interleavedRows returns, for an interleaved weight t, a function giving
// row i in GGUF order (in worker w's buffer, valid until its next call);
// nil for any other tensor.
func interleavedRows(t *gpu.Tensor, nth int) func(w, i int) []byte {
	if !isInterleaved(t) {
		return nil
	}
	b := t.Root().Buf.(*buffer)
	bufs := make([][]byte, nth)
	for i := range bufs {
		bufs[i] = make([]byte, b.typ.RowBytes(b.shape[0]))
	}
	return func(w, i int) []byte {
		b.row(bufs[w], i)
		return bufs[w]
	}
}
