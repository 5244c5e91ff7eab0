package quant

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
)

// dotKernel returns the dot product of one weight row of n values with an
// activation row quantized for it. Callers have checked every length.
type dotKernel func(w, act []byte, n int) float32

// maxType bounds the type ids the dispatch tables index.
const maxType = 64

// goDot holds the pure-Go kernels: the fallback on every architecture and
// the reference the assembly is tested against (bit for bit: both sum in
// the same order, see dot_blocks.go).
var goDot = [maxType]dotKernel{
	gguf.F32:  dotF32G,
	gguf.F16:  dotF16G,
	gguf.BF16: dotBF16,
	gguf.Q4_0: dotQ4_0,
	gguf.Q4_1: dotQ4_1G,
	gguf.Q5_0: dotQ5_0G,
	gguf.Q5_1: dotQ5_1G,
	gguf.Q8_0: dotQ8_0G,
	gguf.Q2_K: dotQ2_K,
	gguf.Q3_K: dotQ3_K,
	gguf.Q4_K: dotQ4_KG,
	gguf.Q5_K: dotQ5_KG,
	gguf.Q6_K: dotQ6_KG,
}

// goGemm holds the kernels of types whose batched product llama.cpp sums
// in another order than its single-token one (llamafile's tinyBLAS for
// float weights); VecDotRowsBatch uses them.
var goGemm = [maxType]dotKernel{
	gguf.F32: gemmF32G,
	gguf.F16: gemmF16G,
}

// goUnrepacked holds the kernels of types whose product llama.cpp sums in
// another order when it does not repack the matrix (see RowsKernel);
// VecDotRowsUnrepacked uses them.
var goUnrepacked = [maxType]dotKernel{
	gguf.Q4_0: dotQ4_0G,
	gguf.Q4_K: dotQ4_KVecG,
}

// asmDot holds the assembly kernels this CPU can run (filled by the
// architecture's init); nil entries fall back to goDot.
var asmDot [maxType]dotKernel

// rowsKernel is an assembly kernel that computes nrows consecutive rows
// in one call, so constants are set up once per matrix rather than once per
// row (bs is the values per block its nb counts).
type rowsKernel struct {
	k  func(w, a *byte, nb, nrows int, out *float32)
	bs int
}

// asmRows holds the multi-row assembly kernels; VecDotRows prefers them
// to calling asmDot row by row.
var asmRows [maxType]rowsKernel

// registerRows installs the multi-row assembly kernel k of type t (blocks
// of bs values) in asmRows, and as a one-row kernel in asmDot.
func registerRows(t gguf.TensorType, k func(w, a *byte, nb, nrows int, out *float32), bs int) {
	asmRows[t] = rowsKernel{k, bs}
	asmDot[t] = func(w, a []byte, n int) float32 {
		if n == 0 {
			return 0
		}
		var out float32
		k(&w[0], &a[0], n/bs, 1, &out)
		return out
	}
}

// useAsm switches the assembly kernels off when false, so tests can run
// the pure-Go path on a machine that has the assembly (and so does
// EMBER_CPU=go, see ISAEnv).
var useAsm = isaCap > isaGo

func kernel(w gguf.TensorType) dotKernel {
	if int(w) >= maxType {
		return nil
	}
	if useAsm && asmDot[w] != nil {
		return asmDot[w]
	}
	return goDot[w]
}

// DotSupported reports whether VecDot has a kernel for weight type w.
func DotSupported(w gguf.TensorType) bool { return kernel(w) != nil }

// DotAsm reports whether the kernel for weight type w is hand-written
// assembly on this machine (for benchmarks and the CLI's diagnostics).
func DotAsm(w gguf.TensorType) bool {
	return int(w) < maxType && useAsm && asmDot[w] != nil
}

// VecDot returns the dot product of one weight row (type w, n elements)
// with one activation row produced by QuantizeAct(w, ...). A length or type
// mismatch is a programming error of the caller and panics.
func VecDot(w gguf.TensorType, wrow []byte, act []byte, n int) float32 {
	k := checkDot(w, wrow, 1, act, n)
	return k(wrow, act, n)
}

// VecDotRows computes out[i] = VecDot(w, rows[i*rowBytes:], act, n) for
// nrows consecutive rows of rowBytes = w.RowBytes(n) bytes each.
func VecDotRows(w gguf.TensorType, rows []byte, nrows int, act []byte, n int, out []float32) {
	k := checkDot(w, rows, nrows, act, n)
	if len(out) < nrows {
		panic(fmt.Sprintf("quant: VecDotRows(%s): out holds %d values, want %d", w, len(out), nrows))
	}
	if w == gguf.F32 && useAsm && hasDotStepsAsm && nrows > 0 && n > 0 {
		dotRowsF32(rows, nrows, act, n, out)
		return
	}
	if r := asmRows[w]; useAsm && r.k != nil && nrows > 0 {
		if n == 0 {
			clear(out[:nrows])
			return
		}
		r.k(&rows[0], &act[0], n/r.bs, nrows, &out[0])
		return
	}
	rb := w.RowBytes(n)
	for i := range out[:nrows] {
		out[i] = k(rows[i*rb:(i+1)*rb], act, n)
	}
}

func checkDot(w gguf.TensorType, rows []byte, nrows int, act []byte, n int) dotKernel {
	k := kernel(w)
	if k == nil {
		panic(fmt.Sprintf("quant: no dot kernel for weight type %s", w))
	}
	if n < 0 || nrows < 0 || n%w.BlockSize() != 0 {
		panic(fmt.Sprintf("quant: dot of %d x %d %s values: the row length must be a multiple of %d", nrows, n, w, w.BlockSize()))
	}
	if len(rows) < nrows*w.RowBytes(n) {
		panic(fmt.Sprintf("quant: dot of %d x %d %s values: weights are %d bytes, want %d", nrows, n, w, len(rows), nrows*w.RowBytes(n)))
	}
	if want := ActType(w).RowBytes(n); len(act) < want {
		panic(fmt.Sprintf("quant: dot of %d %s values: activation is %d bytes, want %d (%s)", n, w, len(act), want, ActType(w)))
	}
	return k
}

// VecDotRowsBatch is VecDotRows for one of several tokens of a batch: for
// F32 and F16 weights with whole 16-value chunks it sums in llamafile's
// order (llama.cpp multiplies batches of two or more tokens with it), for
// other types as VecDotRows.
func VecDotRowsBatch(w gguf.TensorType, rows []byte, nrows int, act []byte, n int, out []float32) {
	if int(w) >= maxType || goGemm[w] == nil || n%16 != 0 {
		VecDotRows(w, rows, nrows, act, n, out)
		return
	}
	rowsWith(goGemm[w], w, rows, nrows, act, n, out)
}

// rowsWith is VecDotRows with kernel k.
func rowsWith(k dotKernel, w gguf.TensorType, rows []byte, nrows int, act []byte, n int, out []float32) {
	checkDot(w, rows, nrows, act, n)
	rb := w.RowBytes(n)
	for i := range out[:nrows] {
		out[i] = k(rows[i*rb:(i+1)*rb], act, n)
	}
}

// VecDotRowsUnrepacked is VecDotRows for a matrix llama.cpp does not
// repack (see RowsKernel): for Q4_0 and Q4_K it sums in ggml_vec_dot's
// order, for other types as VecDotRows.
func VecDotRowsUnrepacked(w gguf.TensorType, rows []byte, nrows int, act []byte, n int, out []float32) {
	rowsInOrder(&asmUnrepacked, &goUnrepacked, w, rows, nrows, act, n, out)
}

// rowsInOrder is VecDotRows in the order of the kernels gos (assembly
// from asm where this machine has it), or VecDotRows itself for a type
// gos has no kernel for.
func rowsInOrder(asm *[maxType]rowsKernel, gos *[maxType]dotKernel, w gguf.TensorType, rows []byte, nrows int, act []byte, n int, out []float32) {
	if int(w) >= maxType || gos[w] == nil {
		VecDotRows(w, rows, nrows, act, n, out)
		return
	}
	if r := asm[w]; useAsm && r.k != nil && nrows > 0 && n > 0 {
		checkDot(w, rows, nrows, act, n)
		r.k(&rows[0], &act[0], n/r.bs, nrows, &out[0])
		return
	}
	rowsWith(gos[w], w, rows, nrows, act, n, out)
}

// asmUnrepacked holds the assembly twins of goUnrepacked.
var asmUnrepacked [maxType]rowsKernel

// goRepackedGemm holds the kernels of types whose repacked matrices
// llama.cpp multiplies by groups of four tokens in another order than by
// a single token; VecDotRowsRepackedGemm uses them.
var goRepackedGemm = [maxType]dotKernel{
	gguf.Q4_K: dotQ4_KGemmG,
}

// VecDotRowsRepackedGemm is VecDotRows for a token of a group of four
// multiplied by a repacked matrix (row count a multiple of 8): for Q4_K
// in the order of llama.cpp's gemm, for other types as VecDotRows.
func VecDotRowsRepackedGemm(w gguf.TensorType, rows []byte, nrows int, act []byte, n int, out []float32) {
	rowsInOrder(&asmRepackedGemm, &goRepackedGemm, w, rows, nrows, act, n, out)
}

// asmRepackedGemm holds the assembly twins of goRepackedGemm.
var asmRepackedGemm [maxType]rowsKernel

// RowsKernel picks the product kernel llama.cpp's x86 CPU build would use
// for token t of tokens activation columns against a matrix of rows rows
// of type w. It repacks the matrices it can (a plain matrix or a stack of
// experts, not a batch of per-head matrices: repackable) whose rows come
// in eights, and takes their tokens in groups of four and the rest one by
// one; float matrices with rows in fours take batches of two or more in
// llamafile's order.
func RowsKernel(w gguf.TensorType, repackable bool, rows, tokens, t int) func(w gguf.TensorType, rows []byte, nrows int, act []byte, n int, out []float32) {
	repacked := repackable && rows%8 == 0
	switch {
	case int(w) >= maxType:
	case !repacked && goUnrepacked[w] != nil:
		return VecDotRowsUnrepacked
	case repacked && goRepackedGemm[w] != nil && t < tokens&^3:
		return VecDotRowsRepackedGemm
	case tokens > 1 && rows%4 == 0:
		return VecDotRowsBatch
	}
	return VecDotRows
}
