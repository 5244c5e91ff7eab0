package quant

import (
	"encoding/binary"
	"math"
)

// Pure-Go kernels for the 32-value block types. Within a block the integer
// dot is exact and the float part is llama.cpp's generic expression for the
// type. Block terms are summed the way a 4-wide SIMD loop does (lanes4), not
// in one running sum, so the assembly is not bound by the latency of a
// chain of adds. The explicit float32() conversions stop the compiler from
// fusing a multiply and an add into an FMA (which it does on arm64), so
// these match the assembly bit for bit.
//
// Block layouts (little endian):
//
//	Q4_0: f16 d, qs[16]          value = d * (nibble - 8)
//	Q4_1: f16 d, f16 m, qs[16]   value = d * nibble + m
//	Q5_0: f16 d, qh[4], qs[16]   value = d * (nibble | bit<<4 - 16)
//	Q5_1: f16 d, f16 m, qh[4], qs[16]
//	Q8_0: f16 d, qs[32] int8
//
// Byte j of qs holds value j in its low nibble and value j+16 in its high
// one; bit j of qh is the fifth bit of value j.

func f16at(b []byte, off int) float32 {
	return f16Fast(binary.LittleEndian.Uint16(b[off:]))
}

// f16Fast is F16ToF32 with the common case (a normal number) small enough
// to be inlined into the kernels' loops.
func f16Fast(h uint16) float32 {
	if e := h & 0x7c00; e != 0 && e != 0x7c00 {
		return math.Float32frombits(uint32(h&0x8000)<<16 | (uint32(h&0x7fff)+112<<10)<<13)
	}
	return F16ToF32(h)
}

// lanes4 sums block terms in the order of the assembly: term b goes to
// lane b%4 for the blocks of the full groups of four, the lanes are folded
// as (0+1)+(2+3), then the remaining terms are added one by one.
type lanes4 struct {
	acc     [4]float32
	sum     float32
	b, full int
}

func newLanes4(nb int) lanes4 { return lanes4{full: nb &^ 3} }

func (l *lanes4) add(t float32) {
	if l.b < l.full {
		l.acc[l.b&3] += t
	} else {
		if l.b == l.full {
			l.sum = (l.acc[0] + l.acc[1]) + (l.acc[2] + l.acc[3])
		}
		l.sum += t
	}
	l.b++
}

func (l *lanes4) result() float32 {
	if l.b == l.full {
		return (l.acc[0] + l.acc[1]) + (l.acc[2] + l.acc[3])
	}
	return l.sum
}

func dotQ4_0(w, a []byte, n int) float32 {
	sum := newLanes4(n / 32)
	for b := 0; b < n/32; b++ {
		x, y := w[18*b:18*b+18], a[q80Bytes*b:q80Bytes*b+q80Bytes]
		var s int32
		for j := 0; j < 16; j++ {
			q := x[2+j]
			s += (int32(q&15) - 8) * int32(int8(y[2+j]))
			s += (int32(q>>4) - 8) * int32(int8(y[18+j]))
		}
		sum.add(float32(float32(float32(s)*f16at(x, 0)) * f16at(y, 0)))
	}
	return sum.result()
}
