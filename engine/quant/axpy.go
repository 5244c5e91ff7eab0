package quant

import (
	"encoding/binary"
	"fmt"
)

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

// FMAScaledF16Rows is FMAScaledF16 of n rows in turn: row j (D values at
// byte j·stride of v) scaled by sc[j] into lane j%L of acc (L lanes of D
// values each). It is attention's values pass over a query's cache rows
// in one call rather than one a row, which for short heads (8 values)
// cost more than the arithmetic; every value still gets one fused
// multiply-add a row, in row order.
func FMAScaledF16Rows(acc []float32, L, D int, sc []float32, v []byte, stride, n int) {
	if n <= 0 || D <= 0 {
		return
	}
	if L <= 0 || len(acc) < L*D || len(sc) < n || len(v) < (n-1)*stride+2*D {
		panic(fmt.Sprintf("quant: FMAScaledF16Rows of %d rows of %d values (stride %d bytes) into %d lanes: %d accumulators, %d scales, %d bytes",
			n, D, stride, L, len(acc), len(sc), len(v)))
	}
	if useAsm && hasAxpyRowsAsm {
		axpyRowsF16(&acc[0], L, D, &sc[0], &v[0], stride, n)
		return
	}
	for j := range n {
		l := j % L
		FMAScaledF16(acc[l*D:(l+1)*D], sc[j], v[j*stride:j*stride+2*D])
	}
}
