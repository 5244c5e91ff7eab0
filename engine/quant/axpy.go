package quant

import "encoding/binary"

// AddScaledF16 adds a times the n half-precision values in v (little
// endian) to y: y[i] += a·v[i], the product rounded before the add (no
// FMA), so the assembly and the Go loop agree bit for bit. Attention uses
// it to weigh an F16 value cache by the softmax of the scores.
func AddScaledF16(y []float32, a float32, v []byte) {
	n := len(y)
	if len(v) < 2*n {
		panic("quant: AddScaledF16: fewer values than outputs")
	}
	if n == 0 {
		return
	}
	if useAsm && hasAxpyAsm {
		axpyF16(&y[0], a, &v[0], n)
		return
	}
	addScaledF16Go(y, a, v)
}

func addScaledF16Go(y []float32, a float32, v []byte) {
	for i := range y {
		y[i] += float32(a * f16Fast(binary.LittleEndian.Uint16(v[2*i:])))
	}
}
