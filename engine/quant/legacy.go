package quant

import (
	"encoding/binary"
	"math"
)

// The legacy formats: blocks of 32 values with one f16 scale (and for the
// _1 kinds an f16 minimum or sum). Layouts, little endian:
//
//	Q4_0: d, qs[16]            x = d * (q - 8)          q in 0..15
//	Q4_1: d, m, qs[16]         x = d * q + m            q in 0..15
//	Q5_0: d, qh[4], qs[16]     x = d * (q - 16)         q in 0..31
//	Q5_1: d, m, qh[4], qs[16]  x = d * q + m            q in 0..31
//	Q8_0: d, qs[32] int8       x = d * q
//	Q8_1: d, s, qs[32] int8    x = d * q, s = d * sum(q)
//
// Byte j of qs holds value j in its low nibble and value j+16 in its high
// one; bit j of the 32-bit qh is the fifth bit of value j.
//
// The encoders mirror quantize_row_*_ref: the float-to-int conversions
// truncate toward zero after adding the rounding offset, exactly as the C
// casts do, so ties and near-ties land where ggml puts them.

const (
	q4_0Bytes = 18
	q4_1Bytes = 20
	q5_0Bytes = 22
	q5_1Bytes = 24
	q8_0Bytes = 34
	q8_1Bytes = 36
)

func halfAt(b []byte, off int) float32 { return F16ToF32(binary.LittleEndian.Uint16(b[off:])) }

func putHalf(b []byte, off int, f float32) { binary.LittleEndian.PutUint16(b[off:], F32ToF16(f)) }

// absMaxSigned returns the largest magnitude and the signed value that has
// it (the first such one), as the _0 encoders pick their scale.
func absMaxSigned(x []float32) (amax, mx float32) {
	for _, v := range x {
		if a := abs32(v); amax < a {
			amax, mx = a, v
		}
	}
	return amax, mx
}

// minMax32 mirrors the _1 encoders' scan (FLT_MAX sentinels, two ifs).
func minMax32(x []float32) (lo, hi float32) {
	lo, hi = math.MaxFloat32, -math.MaxFloat32
	for _, v := range x {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	return lo, hi
}

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

// recip is ggml's "d ? 1.0f/d : 0.0f".
func recip(d float32) float32 {
	if d != 0 {
		return 1 / d
	}
	return 0
}

func encodeQ4_0(src []float32, dst []byte) {
	for b := 0; b < len(src)/32; b++ {
		x, y := src[32*b:32*b+32], dst[q4_0Bytes*b:q4_0Bytes*b+q4_0Bytes]
		_, mx := absMaxSigned(x)
		d := mx / -8
		id := recip(d)
		putHalf(y, 0, d)
		for j := 0; j < 16; j++ {
			lo := min(15, int8(truncToInt32(float64(float32(x[j]*id)+8.5))))
			hi := min(15, int8(truncToInt32(float64(float32(x[16+j]*id)+8.5))))
			y[2+j] = uint8(lo) | uint8(hi)<<4
		}
	}
}

func decodeQ4_0(src []byte, dst []float32) {
	for b := 0; b < len(dst)/32; b++ {
		x, y := src[q4_0Bytes*b:q4_0Bytes*b+q4_0Bytes], dst[32*b:32*b+32]
		d := halfAt(x, 0)
		for j, q := range x[2:18] {
			y[j] = float32(int32(q&15)-8) * d
			y[16+j] = float32(int32(q>>4)-8) * d
		}
	}
}

func encodeQ4_1(src []float32, dst []byte) {
	for b := 0; b < len(src)/32; b++ {
		x, y := src[32*b:32*b+32], dst[q4_1Bytes*b:q4_1Bytes*b+q4_1Bytes]
		lo, hi := minMax32(x)
		d := (hi - lo) / 15
		id := recip(d)
		putHalf(y, 0, d)
		putHalf(y, 2, lo)
		for j := 0; j < 16; j++ {
			q0 := min(15, int8(truncToInt32(float64(float32((x[j]-lo)*id)+0.5))))
			q1 := min(15, int8(truncToInt32(float64(float32((x[16+j]-lo)*id)+0.5))))
			y[4+j] = uint8(q0) | uint8(q1)<<4
		}
	}
}

func decodeQ4_1(src []byte, dst []float32) {
	for b := 0; b < len(dst)/32; b++ {
		x, y := src[q4_1Bytes*b:q4_1Bytes*b+q4_1Bytes], dst[32*b:32*b+32]
		d, m := halfAt(x, 0), halfAt(x, 2)
		for j, q := range x[4:20] {
			y[j] = float32(float32(q&15)*d) + m
			y[16+j] = float32(float32(q>>4)*d) + m
		}
	}
}

func encodeQ5_0(src []float32, dst []byte) {
	for b := 0; b < len(src)/32; b++ {
		x, y := src[32*b:32*b+32], dst[q5_0Bytes*b:q5_0Bytes*b+q5_0Bytes]
		_, mx := absMaxSigned(x)
		d := mx / -16
		id := recip(d)
		putHalf(y, 0, d)
		var qh uint32
		for j := 0; j < 16; j++ {
			q0 := uint8(min(31, int8(truncToInt32(float64(float32(x[j]*id)+16.5)))))
			q1 := uint8(min(31, int8(truncToInt32(float64(float32(x[16+j]*id)+16.5)))))
			y[6+j] = q0&15 | (q1&15)<<4
			qh |= uint32(q0&0x10)>>4<<j | uint32(q1&0x10)>>4<<(j+16)
		}
		binary.LittleEndian.PutUint32(y[2:], qh)
	}
}

func decodeQ5_0(src []byte, dst []float32) {
	for b := 0; b < len(dst)/32; b++ {
		x, y := src[q5_0Bytes*b:q5_0Bytes*b+q5_0Bytes], dst[32*b:32*b+32]
		d := halfAt(x, 0)
		qh := binary.LittleEndian.Uint32(x[2:])
		for j, q := range x[6:22] {
			h0 := int32(qh>>j&1) << 4
			h1 := int32(qh>>(j+16)&1) << 4
			y[j] = float32(int32(q&15)|h0-16) * d
			y[16+j] = float32(int32(q>>4)|h1-16) * d
		}
	}
}

func encodeQ5_1(src []float32, dst []byte) {
	for b := 0; b < len(src)/32; b++ {
		x, y := src[32*b:32*b+32], dst[q5_1Bytes*b:q5_1Bytes*b+q5_1Bytes]
		lo, hi := minMax32(x)
		d := (hi - lo) / 31
		id := recip(d)
		putHalf(y, 0, d)
		putHalf(y, 2, lo)
		var qh uint32
		for j := 0; j < 16; j++ {
			q0 := uint8(truncToInt32(float64(float32((x[j]-lo)*id) + 0.5)))
			q1 := uint8(truncToInt32(float64(float32((x[16+j]-lo)*id) + 0.5)))
			y[8+j] = q0&15 | (q1&15)<<4
			qh |= uint32(q0&0x10)>>4<<j | uint32(q1&0x10)>>4<<(j+16)
		}
		binary.LittleEndian.PutUint32(y[4:], qh)
	}
}

func decodeQ5_1(src []byte, dst []float32) {
	for b := 0; b < len(dst)/32; b++ {
		x, y := src[q5_1Bytes*b:q5_1Bytes*b+q5_1Bytes], dst[32*b:32*b+32]
		d, m := halfAt(x, 0), halfAt(x, 2)
		qh := binary.LittleEndian.Uint32(x[4:])
		for j, q := range x[8:24] {
			h0 := uint8(qh>>j&1) << 4
			h1 := uint8(qh>>(j+16)&1) << 4
			y[j] = float32(float32(q&15|h0)*d) + m
			y[16+j] = float32(float32(q>>4|h1)*d) + m
		}
	}
}

// q8Amax is MAX(amax, fabsf(v)) over the block, NaN behaviour included.
func q8Amax(x []float32) float32 {
	var amax float32
	for _, v := range x {
		if a := abs32(v); !(amax > a) {
			amax = a
		}
	}
	return amax
}

// roundAway is C's roundf narrowed to int8 the way the cast does.
func roundAway(v float32) int8 { return int8(truncToInt32(math.Round(float64(v)))) }

// truncToInt32 converts as x86's cvttss2si/cvttsd2si do, which is what
// ggml's float-to-integer casts compile to there: truncation toward zero,
// and for NaN or anything outside the int32 range the "integer indefinite"
// value MinInt32. Go leaves out-of-range conversions to the platform (arm64
// saturates), so without this the bytes of degenerate blocks (subnormal
// values, whose scale's reciprocal overflows to infinity) would depend on
// the machine.
func truncToInt32(f float64) int32 {
	if f >= -(1<<31) && f < 1<<31 {
		return int32(f)
	}
	return math.MinInt32
}

func encodeQ8_0(src []float32, dst []byte) {
	for b := 0; b < len(src)/32; b++ {
		x, y := src[32*b:32*b+32], dst[q8_0Bytes*b:q8_0Bytes*b+q8_0Bytes]
		d := q8Amax(x) / 127
		id := recip(d)
		putHalf(y, 0, d)
		for j, v := range x {
			y[2+j] = uint8(roundAway(v * id))
		}
	}
}

func decodeQ8_0(src []byte, dst []float32) {
	for b := 0; b < len(dst)/32; b++ {
		x, y := src[q8_0Bytes*b:q8_0Bytes*b+q8_0Bytes], dst[32*b:32*b+32]
		d := halfAt(x, 0)
		for j, q := range x[2:34] {
			y[j] = float32(int8(q)) * d
		}
	}
}

func encodeQ8_1(src []float32, dst []byte) {
	for b := 0; b < len(src)/32; b++ {
		x, y := src[32*b:32*b+32], dst[q8_1Bytes*b:q8_1Bytes*b+q8_1Bytes]
		d := q8Amax(x) / 127
		id := recip(d)
		var sum int32
		for j, v := range x {
			q := roundAway(v * id)
			y[4+j] = uint8(q)
			sum += int32(q)
		}
		putHalf(y, 0, d)
		putHalf(y, 2, float32(sum)*d)
	}
}

func decodeQ8_1(src []byte, dst []float32) {
	for b := 0; b < len(dst)/32; b++ {
		x, y := src[q8_1Bytes*b:q8_1Bytes*b+q8_1Bytes], dst[32*b:32*b+32]
		d := halfAt(x, 0)
		for j, q := range x[4:36] {
			y[j] = float32(int8(q)) * d
		}
	}
}
