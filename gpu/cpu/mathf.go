package cpu

import (
	"unsafe"

	"github.com/emberllm/ember/engine/quant"
)

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
