package cpu

import (
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// Interleaved Q4_0 weights. Like llama.cpp's CPU backend, which repacks
// Q4_0 matrices at load into its "repack" buffers, the backend stores a
// copied Q4_0 matrix with sixteen rows side by side (quant's interleaved
// layout) when this CPU has the kernels for it: products then take many
// tokens per unpacked block with no horizontal sums, and compute the same
// float sums as llama.cpp's repacked kernels. Mapped weights stay as the
// file has them, and so do matrices llama.cpp would not repack (rows not a
// multiple of 8) and stacks of expert matrices.
//
// Only MatMul (as W) and Embed (as Table) read an interleaved buffer, and
// only whole (not through a view); Read gives the bytes back in GGUF order.

// interleaves reports whether Weight stores a weight of typ and shape
// interleaved.
func interleaves(b *Backend, typ gpu.Type, shape [4]int) bool {
	return !b.mapped && typ == gguf.Q4_0 && shape[2] == 1 && shape[3] == 1 &&
		quant.Interleavable(shape[1]) && quant.InterleavedFast()
}

func interleavedWeight(b *Backend, name string, shape [4]int, data []byte) *buffer {
	c := alignedBytes(quant.InterleavedQ4_0Bytes(shape[1], shape[0]))
	quant.InterleaveQ4_0(c, data, shape[1], shape[0])
	return &buffer{name: name, typ: gguf.Q4_0, shape: shape, data: c, readOnly: true, owner: b, interleaved: true}
}

// readInterleaved copies bytes [off, off+len(dst)) of the matrix in GGUF
// order out of an interleaved buffer.
func (b *buffer) readInterleaved(off int, dst []byte) {
	n := b.shape[0]
	rb := gguf.Q4_0.RowBytes(n)
	row := make([]byte, rb)
	for len(dst) > 0 {
		r, in := off/rb, off%rb
		quant.InterleavedQ4_0Row(row, b.data, n, r)
		k := copy(dst, row[in:])
		dst, off = dst[k:], off+k
	}
}

// isInterleaved reports whether t is (a view of) an interleaved
// weight.
func isInterleaved(t *gpu.Tensor) bool {
	r := t.Root()
	if r.Kind != gpu.External {
		return false
	}
	b, ok := r.Buf.(*buffer)
	return ok && b.interleaved
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
	n := b.shape[0]
	bufs := make([][]byte, nth)
	for i := range bufs {
		bufs[i] = make([]byte, gguf.Q4_0.RowBytes(n))
	}
	return func(w, i int) []byte {
		quant.InterleavedQ4_0Row(bufs[w], b.data, n, i)
		return bufs[w]
	}
}
