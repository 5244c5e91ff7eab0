package quant

import "encoding/binary"

// FMAScaledF16 adds a times the n half-precision values in v (little
// endian) to y with one rounding per value: y[i] = fma(a, v[i], y[i]), as
// llama.cpp's SIMD loops accumulate, so the assembly and the Go loop agree
// bit for bit. Attention uses it to weigh an F16 value cache by the
// softmax of the scores, one accumulator row per summation lane.
func FMAScaledF16(y []float32, a float32, v []byte) {
	n := len(y)
	if len(v) < 2*n {
		panic("quant: FMAScaledF16: fewer values than outputs")
	}
	if n == 0 {
		return
	}
	if useAsm && hasAxpyAsm {
		axpyF16(&y[0], a, &v[0], n)
		return
	}
	fmaScaledF16Go(y, a, v)
}

func fmaScaledF16Go(y []float32, a float32, v []byte) {
	for i := range y {
		y[i] = FMA32(a, f16Fast(binary.LittleEndian.Uint16(v[2*i:])), y[i])
	}
}
