package quant

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
)

// The interleaved layouts of every type that has one (Q4_0, Q4_K, Q8_0),
// by type, for callers that store weights and need not know which.

// Interleaves reports whether a matrix of type t with nrows rows is
// stored interleaved on this machine: llama.cpp repacks it (rows in
// eights) and this CPU has the kernels for its layout; or, for Q8_0, the
// layout changes no sum (q8_0_interleaved.go) and this CPU has its kernels.
func Interleaves(t gguf.TensorType, nrows int) bool {
	switch t {
	case gguf.Q4_0:
		return Interleavable(nrows) && InterleavedFast()
	case gguf.Q4_K:
		return Interleavable(nrows) && InterleavedQ4_KFast()
	case gguf.Q8_0:
		return InterleavableQ8_0(nrows) && InterleavedQ8_0Fast()
	}
	return false
}

// InterleavedBytes is the size of an interleaved matrix of type t, nrows
// rows of n values.
func InterleavedBytes(t gguf.TensorType, nrows, n int) int {
	switch t {
	case gguf.Q4_0:
		return InterleavedQ4_0Bytes(nrows, n)
	case gguf.Q4_K:
		return InterleavedQ4_KBytes(nrows, n)
	case gguf.Q8_0:
		return nrows * t.RowBytes(n)
	}
	panic(fmt.Sprintf("quant: no interleaved layout for %s", t))
}

// Interleave stores the nrows rows of type t and n values in src (GGUF
// layout) into dst, InterleavedBytes(t, nrows, n) bytes, interleaved. For
// Q8_0 it reports whether a quant is -128 (InterleaveQ8_0, ColsQ8_0x4).
func Interleave(t gguf.TensorType, dst, src []byte, nrows, n int) (fullRange bool) {
	switch t {
	case gguf.Q4_0:
		InterleaveQ4_0(dst, src, nrows, n)
	case gguf.Q4_K:
		InterleaveQ4_K(dst, src, nrows, n)
	case gguf.Q8_0:
		return InterleaveQ8_0(dst, src, nrows, n)
	default:
		panic(fmt.Sprintf("quant: no interleaved layout for %s", t))
	}
	return false
}

// InterleavedRow writes row r of the interleaved matrix w of type t (n
// values a row) to dst in GGUF's layout.
func InterleavedRow(t gguf.TensorType, dst, w []byte, n, r int) {
	switch t {
	case gguf.Q4_0:
		InterleavedQ4_0Row(dst, w, n, r)
	case gguf.Q4_K:
		InterleavedQ4_KRow(dst, w, n, r)
	case gguf.Q8_0:
		InterleavedQ8_0Row(dst, w, n, r)
	default:
		panic(fmt.Sprintf("quant: no interleaved layout for %s", t))
	}
}
