package quant

import (
	"encoding/binary"
	"math"
)

// Q8_K: 256 values with one float32 scale, the activation format the
// k-quant dot kernels pair with. Layout (292 bytes):
//
//	d           float32
//	qs[256]     int8, x = d*q
//	bsums[16]   int16, the sum of each 16 consecutive qs
const q8KSize = 292

func encodeQ8_K(src []float32, dst []byte) {
	for b := 0; b < len(src)/256; b++ {
		x, y := src[256*b:256*b+256], dst[q8KSize*b:q8KSize*b+q8KSize]
		var amax, mx float32
		for _, v := range x {
			if a := abs32(v); a > amax {
				amax, mx = a, v
			}
		}
		if amax == 0 {
			// ggml leaves bsums unwritten here; zero is what they sum to.
			clear(y)
			continue
		}
		iscale := -127 / mx
		qs := y[4:260]
		for j, v := range x {
			qs[j] = uint8(int8(min(127, nearestInt(iscale*v))))
		}
		for g := 0; g < 16; g++ {
			var s int32
			for _, q := range qs[16*g : 16*g+16] {
				s += int32(int8(q))
			}
			binary.LittleEndian.PutUint16(y[260+2*g:], uint16(int16(s)))
		}
		binary.LittleEndian.PutUint32(y, math.Float32bits(1/iscale))
	}
}

func decodeQ8_K(src []byte, dst []float32) {
	for b := 0; b < len(dst)/256; b++ {
		x, y := src[q8KSize*b:q8KSize*b+q8KSize], dst[256*b:256*b+256]
		d := math.Float32frombits(binary.LittleEndian.Uint32(x))
		for j, q := range x[4:260] {
			y[j] = d * float32(int8(q))
		}
	}
}
