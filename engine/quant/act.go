package quant

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/gguf"
)

// Activation formats, as llama.cpp lays them out (the CPU dot kernels read
// these bytes directly):
//
//	Q8_0: f16 d, int8 qs[32]                  (34 bytes per 32 values)
//	Q8_1: f16 d, f16 s = d*sum(qs), qs[32]    (36 bytes per 32 values)
//	Q8_K: f32 d, int8 qs[256], int16 bsums[16] (292 bytes per 256 values)
const (
	q80Bytes = 34
	q81Bytes = 36
	q8KBytes = 292
)

// ActType is the activation format paired with weight type w: Q8_0 for
// Q4_0, Q5_0, Q8_0; Q8_1 for Q4_1, Q5_1; Q8_K for Q2_K..Q6_K; F32 for F32,
// F16, BF16 (a float dot). Types without a dot kernel (see DotSupported)
// also map to F32.
func ActType(w gguf.TensorType) gguf.TensorType {
	switch w {
	case gguf.Q4_0, gguf.Q5_0, gguf.Q8_0:
		return gguf.Q8_0
	case gguf.Q4_1, gguf.Q5_1:
		return gguf.Q8_1
	case gguf.Q2_K, gguf.Q3_K, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K:
		return gguf.Q8_K
	}
	return gguf.F32
}

// ActBytes is the size of the buffer QuantizeAct needs for n values of an
// activation paired with weight type w.
func ActBytes(w gguf.TensorType, n int) int {
	return ActType(w).RowBytes(n)
}

// QuantizeAct quantizes one activation row x (len n, a multiple of w's block
// size) into dst, which must be ActType(w).RowBytes(n) bytes (for an F32
// activation: 4*n bytes, the floats themselves). It panics on a size
// mismatch: that is a programming error of the caller, never bad input.
func QuantizeAct(w gguf.TensorType, x []float32, dst []byte) {
	at := ActType(w)
	n := len(x)
	if n%at.BlockSize() != 0 || len(dst) != at.RowBytes(n) {
		panic(fmt.Sprintf("quant: QuantizeAct(%s): %d values into %d bytes, want a multiple of %d values and %d bytes",
			w, n, len(dst), at.BlockSize(), at.RowBytes(n)))
	}
	switch at {
	case gguf.Q8_0:
		quantizeActQ8_0(x, dst)
	case gguf.Q8_1:
		quantizeActQ8_1(x, dst)
	case gguf.Q8_K:
		quantizeActQ8_K(x, dst)
	default:
		// llama.cpp multiplies F16 and BF16 weights by activations
		// converted to the weight's type; rounding them the same way here
		// keeps the products (exact in f32) and so the results alike.
		if w == gguf.F16 && n > 0 {
			RoundF16(f32View(dst, n), x)
			return
		}
		round := func(v float32) float32 { return v }
		if w == gguf.BF16 {
			round = func(v float32) float32 { return BF16ToF32(F32ToBF16(v)) }
		}
		for i, v := range x {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(round(v)))
		}
	}
}

// q8Scale32 follows llama.cpp's CPU quantize_row_q8_0/q8_1 (the x86 and
// ARM versions the CPU backend actually runs): d = amax/127 stored as f16,
// values scaled by 127/amax and rounded half to even.
func q8Scale32(x []float32) (d, id float32) {
	var amax float32
	for _, v := range x {
		amax = max(amax, float32(math.Abs(float64(v))))
	}
	d = amax / 127
	if amax != 0 {
		id = 127 / amax
	}
	return d, id
}

func roundQ8(v float32) int8 {
	return int8(math.RoundToEven(float64(v)))
}

func quantizeActQ8_0(x []float32, dst []byte) {
	if nb := len(x) / 32; nb > 0 && useAsm && hasQuantizeQ8_0Asm {
		_ = dst[q80Bytes*nb-1]
		quantizeQ8_0Asm(&dst[0], &x[0], nb)
		return
	}
	quantizeActQ8_0Go(x, dst)
}

func quantizeActQ8_0Go(x []float32, dst []byte) {
	for b := 0; b < len(x)/32; b++ {
		xs, out := x[32*b:32*b+32], dst[q80Bytes*b:q80Bytes*b+q80Bytes]
		d, id := q8Scale32(xs)
		binary.LittleEndian.PutUint16(out, F32ToF16(d))
		for j, v := range xs {
			out[2+j] = byte(roundQ8(float32(v * id)))
		}
	}
}

func quantizeActQ8_1(x []float32, dst []byte) {
	for b := 0; b < len(x)/32; b++ {
		xs, out := x[32*b:32*b+32], dst[q81Bytes*b:q81Bytes*b+q81Bytes]
		d, id := q8Scale32(xs)
		sum := 0
		for j, v := range xs {
			q := roundQ8(float32(v * id))
			out[4+j] = byte(q)
			sum += int(q)
		}
		binary.LittleEndian.PutUint16(out, F32ToF16(d))
		binary.LittleEndian.PutUint16(out[2:], F32ToF16(float32(d*float32(sum))))
	}
}

// quantizeActQ8_K follows llama.cpp's quantize_row_q8_K_ref: the scale is
// taken from the signed value of largest magnitude (iscale = -127/max), the
// stored d is its float32 reciprocal, and bsums hold the sum of each 16
// quantized values so kernels can apply per-sub-block minimums cheaply.
func quantizeActQ8_K(x []float32, dst []byte) {
	for b := 0; b < len(x)/256; b++ {
		xs, out := x[256*b:256*b+256], dst[q8KBytes*b:q8KBytes*b+q8KBytes]
		var amax, mx float32
		for _, v := range xs {
			if a := float32(math.Abs(float64(v))); a > amax {
				amax, mx = a, v
			}
		}
		if amax == 0 {
			clear(out)
			continue
		}
		iscale := -127 / mx
		for j, v := range xs {
			q := math.RoundToEven(float64(float32(iscale * v)))
			out[4+j] = byte(int8(min(127, q)))
		}
		for j := 0; j < 16; j++ {
			s := 0
			for _, q := range out[4+16*j : 4+16*j+16] {
				s += int(int8(q))
			}
			binary.LittleEndian.PutUint16(out[260+2*j:], uint16(int16(s)))
		}
		binary.LittleEndian.PutUint32(out, math.Float32bits(1/iscale))
	}
}
