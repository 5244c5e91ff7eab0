// Package quant holds ggml's tensor block formats: decoding (Dequantize)
// and encoding (Quantize) of float, legacy (Q4_0..Q8_1) and k-quant
// (Q2_K..Q8_K) blocks, plus the CPU dot kernels that read quantized weights
// directly, and one layout of ggml's CPU "repack" kind: Q4_0 with sixteen
// rows interleaved (q4_0_interleaved.go), the form the CPU backend keeps
// copied Q4_0 matrices in.
//
// Block layouts are llama.cpp's (ggml-common.h), byte for byte and little
// endian, so data moves between GGUF files, backends and this package
// untouched. The encoders follow ggml's reference quantizers (the ones
// ggml_quantize_chunk runs without an importance matrix) operation by
// operation in float32, so a tensor quantized here is bit-identical to one
// quantized by llama.cpp. That is why the arithmetic is written with explicit
// float32 conversions: Go may fuse a*b+c into one FMA, C as ggml is built
// does not, and a single fused rounding can move a value across a rounding
// boundary.
//
// Both directions work block by block with no allocation. Quantize spreads
// large inputs of the slow k-quant types over GOMAXPROCS goroutines itself
// (parallel.go); everything else runs on the calling goroutine, and callers
// may parallelise by giving goroutines disjoint runs of whole blocks.
package quant

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
)

// codec is one type's pair of row functions. Lengths are checked by the
// caller: src/dst hold whole blocks and agree with each other.
type codec struct {
	decode func(src []byte, dst []float32)
	encode func(src []float32, dst []byte) // nil: no encoder
}

var codecs = map[gguf.TensorType]codec{
	gguf.F32:  {decodeF32, encodeF32},
	gguf.F16:  {decodeF16, encodeF16},
	gguf.BF16: {decodeBF16, encodeBF16},
	gguf.Q4_0: {decodeQ4_0, encodeQ4_0},
	gguf.Q4_1: {decodeQ4_1, encodeQ4_1},
	gguf.Q5_0: {decodeQ5_0, encodeQ5_0},
	gguf.Q5_1: {decodeQ5_1, encodeQ5_1},
	gguf.Q8_0: {decodeQ8_0, encodeQ8_0},
	gguf.Q8_1: {decodeQ8_1, encodeQ8_1},
	gguf.Q2_K: {decodeQ2_K, encodeQ2_K},
	gguf.Q3_K: {decodeQ3_K, encodeQ3_K},
	gguf.Q4_K: {decodeQ4_K, encodeQ4_K},
	gguf.Q5_K: {decodeQ5_K, encodeQ5_K},
	gguf.Q6_K: {decodeQ6_K, encodeQ6_K},
	gguf.Q8_K: {decodeQ8_K, encodeQ8_K},
}

// CanDequantize reports whether Dequantize decodes type t.
func CanDequantize(t gguf.TensorType) bool {
	c, ok := codecs[t]
	return ok && c.decode != nil
}

// CanQuantize reports whether Quantize encodes type t.
func CanQuantize(t gguf.TensorType) bool {
	c, ok := codecs[t]
	return ok && c.encode != nil
}

// Dequantize decodes len(dst) elements (a multiple of t.BlockSize()) of
// type t from src, which must be exactly t.RowBytes(len(dst)) bytes.
func Dequantize(t gguf.TensorType, src []byte, dst []float32) error {
	if !CanDequantize(t) {
		return fmt.Errorf("quant: cannot dequantize tensor type %s", t)
	}
	if err := checkLengths(t, len(dst), len(src)); err != nil {
		return fmt.Errorf("quant: dequantize %s: %w", t, err)
	}
	codecs[t].decode(src, dst)
	return nil
}

// Quantize encodes src (a multiple of t.BlockSize() elements) as type t into
// dst, which must be exactly t.RowBytes(len(src)) bytes. The bytes are those
// ggml's reference encoders produce (ggml_quantize_chunk without an
// importance matrix).
func Quantize(t gguf.TensorType, src []float32, dst []byte) error {
	if !CanQuantize(t) {
		return fmt.Errorf("quant: cannot quantize to tensor type %s", t)
	}
	if err := checkLengths(t, len(src), len(dst)); err != nil {
		return fmt.Errorf("quant: quantize %s: %w", t, err)
	}
	encodeBlocks(t, codecs[t].encode, src, dst)
	return nil
}

func checkLengths(t gguf.TensorType, elems, nbytes int) error {
	if bs := t.BlockSize(); elems%bs != 0 {
		return fmt.Errorf("%d elements is not a multiple of the block size %d", elems, bs)
	}
	if want := t.RowBytes(elems); nbytes != want {
		return fmt.Errorf("%d elements take %d bytes, got %d", elems, want, nbytes)
	}
	return nil
}
