package cpu

import (
	"math"
	"unsafe"

	"github.com/emberllm/ember/engine/quant"
)

// expf is a float32 exponential (Cephes' expf: range reduction by ln 2 in
// two parts, a degree-6 polynomial, exponent bits set directly), within
// 2 ulp over the normal range. Results below the smallest normal float32
// (x < -87.3) are flushed to zero: they only ever feed softmax and sigmoid
// denominators, where such a term is far below float32 resolution.
func expf(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		c1    = 0.693359375
		c2    = -2.12194440e-4
	)
	if x > 88.72283 {
		return float32(math.Inf(1))
	}
	if x < -87.33654 {
		return 0
	}
	if x != x {
		return x
	}
	fn := x * log2e
	if fn >= 0 {
		fn = float32(int32(fn + 0.5))
	} else {
		fn = float32(int32(fn - 0.5))
	}
	r := x - fn*c1
	r -= fn * c2
	p := float32(1.9875691500e-4)
	p = p*r + 1.3981999507e-3
	p = p*r + 8.3334519073e-3
	p = p*r + 4.1665795894e-2
	p = p*r + 1.6666665459e-1
	p = p*r + 5.0000001201e-1
	y := p*r*r + r + 1
	n := int32(fn)
	if n < -126 {
		// fn = -127 only for x in [-87.34, -87.33]: scale in two steps.
		return y * math.Float32frombits(uint32(n+128)<<23) * 0.5
	}
	return y * math.Float32frombits(uint32(n+127)<<23)
}

func sigmoid(x float32) float32 { return 1 / (1 + expf(-x)) }

// f16Table widens every half-precision value (256 KiB, as ggml keeps one):
// the attention loop over an F16 value cache converts one value per
// multiply-add and a table load beats the bit manipulation.
var f16Table = func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for i := range t {
		t[i] = quant.F16ToF32(uint16(i))
	}
	return &t
}()

// f32s views b (4-byte aligned, checked at compile time) as n floats.
func f32s(b []byte, n int) []float32 {
	if n == 0 {
		return nil
	}
	_ = b[4*n-1]
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

func i32s(b []byte, n int) []int32 {
	if n == 0 {
		return nil
	}
	_ = b[4*n-1]
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

func u16s(b []byte, n int) []uint16 {
	if n == 0 {
		return nil
	}
	_ = b[2*n-1]
	return unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// bytesOf views floats as their bytes (for the dot kernels' F32 operand).
func bytesOf(x []float32) []byte {
	if len(x) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), 4*len(x))
}
