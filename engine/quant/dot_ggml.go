package quant

import (
	"encoding/binary"
	"unsafe"
)

// Dot kernels in the order of llama.cpp's x86 CPU build (AVX-512 zen4
// variant, the one its prebuilt packages run on current x86 servers), so
// that ember's products equal llama.cpp's bit for bit.
//
// Legacy 32-value blocks (ggml_vec_dot_q8_0_q8_0 and friends, and
// llamafile's tinyBLAS_Q0 for a batch, which computes the same thing): a
// block's 32 integer products are summed in eight lanes of four
// consecutive values, each lane converted to float and accumulated with a
// fused multiply-add by the block's scale product into its own float lane;
// the eight lanes are folded with SumLanes8 at the end. Types with a
// minimum (Q4_1, Q5_1) add Σ m·s, summed in a float on the side.

// lanes8 accumulates block lane sums as the AVX2 loop does.
type lanes8 [8]float32

func (a *lanes8) add(d float32, isum *[8]int32) {
	for i := range a {
		a[i] = FMA32(d, float32(isum[i]), a[i])
	}
}

func dotQ8_0G(w, a []byte, n int) float32 {
	var acc lanes8
	for b := 0; b < n/32; b++ {
		x, y := w[34*b:34*b+34], a[q80Bytes*b:q80Bytes*b+q80Bytes]
		var s [8]int32
		for j := 0; j < 32; j++ {
			s[j/4] += int32(int8(x[2+j])) * int32(int8(y[2+j]))
		}
		acc.add(f16at(x, 0)*f16at(y, 0), &s)
	}
	return SumLanes8((*[8]float32)(&acc))
}

// dotQ4_0G is ggml_vec_dot_q4_0_q8_0's order (the Q8_0 one, values
// j < 16 from the low nibbles, the rest from the high ones, less 8): what
// llama.cpp sums for Q4_0 matrices it does not repack (the 3-D per-head
// weights of MLA's batched products).
func dotQ4_0G(w, a []byte, n int) float32 {
	var acc lanes8
	for b := 0; b < n/32; b++ {
		x, y := w[18*b:18*b+18], a[q80Bytes*b:q80Bytes*b+q80Bytes]
		var s [8]int32
		for j := 0; j < 32; j++ {
			s[j/4] += (int32(x[2+j%16]>>(4*uint(j/16))&15) - 8) * int32(int8(y[2+j]))
		}
		acc.add(f16at(x, 0)*f16at(y, 0), &s)
	}
	return SumLanes8((*[8]float32)(&acc))
}

func dotQ5_0G(w, a []byte, n int) float32 {
	var acc lanes8
	for b := 0; b < n/32; b++ {
		x, y := w[22*b:22*b+22], a[q80Bytes*b:q80Bytes*b+q80Bytes]
		qh := binary.LittleEndian.Uint32(x[2:])
		var s [8]int32
		for j := 0; j < 32; j++ {
			s[j/4] += q5Value(x[6:], qh, j, 16) * int32(int8(y[2+j]))
		}
		acc.add(f16at(x, 0)*f16at(y, 0), &s)
	}
	return SumLanes8((*[8]float32)(&acc))
}

// q5Value is value j of a Q5 block (nibbles qs, fifth bits qh) less off.
func q5Value(qs []byte, qh uint32, j int, off int32) int32 {
	q := int32(qs[j%16] >> (4 * uint(j/16)) & 15)
	return q | int32(qh>>uint(j)&1)<<4 - off
}

func dotQ4_1G(w, a []byte, n int) float32 {
	var acc lanes8
	var summs float32
	for b := 0; b < n/32; b++ {
		x, y := w[20*b:20*b+20], a[q81Bytes*b:q81Bytes*b+q81Bytes]
		summs = FMA32(f16at(x, 2), f16at(y, 2), summs)
		var s [8]int32
		for j := 0; j < 32; j++ {
			s[j/4] += int32(x[4+j%16]>>(4*uint(j/16))&15) * int32(int8(y[4+j]))
		}
		acc.add(f16at(x, 0)*f16at(y, 0), &s)
	}
	return SumLanes8((*[8]float32)(&acc)) + summs
}

func dotQ5_1G(w, a []byte, n int) float32 {
	var acc lanes8
	var summs float32
	for b := 0; b < n/32; b++ {
		x, y := w[24*b:24*b+24], a[q81Bytes*b:q81Bytes*b+q81Bytes]
		summs = FMA32(f16at(x, 2), f16at(y, 2), summs)
		qh := binary.LittleEndian.Uint32(x[4:])
		var s [8]int32
		for j := 0; j < 32; j++ {
			s[j/4] += q5Value(x[8:], qh, j, 0) * int32(int8(y[4+j]))
		}
		acc.add(f16at(x, 0)*f16at(y, 0), &s)
	}
	return SumLanes8((*[8]float32)(&acc)) + summs
}

// Float weights: a single token as ggml_vec_dot_f32/f16 (DotF32Vec's and
// DotF16Vec's orders), a batch as tinyBLAS (DotGemm16). The activation of F16 weights
// is already rounded to F16 (QuantizeAct), as ggml converts it.

func dotF32G(w, a []byte, n int) float32 {
	return DotF32Vec(f32View(w, n), f32View(a, n))
}

func gemmF32G(w, a []byte, n int) float32 {
	return DotGemm16(f32View(w, n), f32View(a, n))
}

func dotF16G(w, a []byte, n int) float32 {
	return DotF16VecH(w[:2*n], f32View(a, n))
}

func gemmF16G(w, a []byte, n int) float32 {
	return DotGemm16H(w[:2*n], f32View(a, n))
}

// DotF16VecH is DotF16Vec with x given as len(y) half-precision values
// (little endian), widened exactly as they are multiplied.
func DotF16VecH(x []byte, y []float32) float32 {
	n := len(y)
	np := n &^ 63
	var acc [64]float32
	FMALanesF16(acc[:], x[:2*np], y[:np])
	sum := float64(FoldLanes64(&acc))
	for i := np; i < n; i++ {
		sum += float64(f16Fast(binary.LittleEndian.Uint16(x[2*i:])) * y[i])
	}
	return float32(sum)
}

// DotGemm16H is DotGemm16 with x given as len(y) half-precision values
// (len(y) a multiple of 16).
func DotGemm16H(x []byte, y []float32) float32 {
	var acc [16]float32
	FMALanesF16(acc[:], x[:2*len(y)], y)
	return SumLanes16(&acc)
}

// f32View reads b's first 4n bytes as float32 values in place (weights
// and activations are 4-byte aligned).
func f32View(b []byte, n int) []float32 {
	if n == 0 {
		return nil
	}
	_ = b[4*n-1]
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}
