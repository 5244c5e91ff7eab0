package quant

import (
	"encoding/binary"
	"math"
)

// The BF16 dot (F32 and F16 follow llama.cpp's orders, dot_ggml.go). The
// sum order is the one of a SIMD loop with four 8-wide accumulators, so the
// assembly can match it bit for bit: value i of the first n&^31 goes to
// lane i%32, the lanes are folded by floatLanesSum, and the tail values are
// then added one by one. Products are rounded before the add (no FMA).

func floatLanesSum(acc *[32]float32) float32 {
	var v [8]float32
	for k := range v {
		v[k] = (acc[k] + acc[8+k]) + (acc[16+k] + acc[24+k])
	}
	u0, u1, u2, u3 := v[0]+v[4], v[1]+v[5], v[2]+v[6], v[3]+v[7]
	return (u0 + u2) + (u1 + u3)
}

func actF32(a []byte, i int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(a[4*i:]))
}

func dotBF16(w, a []byte, n int) float32 {
	var acc [32]float32
	main := n &^ 31
	for i := 0; i < main; i += 32 {
		ws, as := w[2*i:][:64], a[4*i:][:128]
		for l := range acc {
			wv := math.Float32frombits(uint32(binary.LittleEndian.Uint16(ws[2*l:])) << 16)
			acc[l] += float32(wv * math.Float32frombits(binary.LittleEndian.Uint32(as[4*l:])))
		}
	}
	sum := floatLanesSum(&acc)
	for i := main; i < n; i++ {
		sum += float32(math.Float32frombits(uint32(binary.LittleEndian.Uint16(w[2*i:]))<<16) * actF32(a, i))
	}
	return sum
}
