package quant

import (
	"encoding/binary"
	"math"
)

// F16ToF32 widens IEEE binary16 bits to float32. Every half is exactly
// representable; a NaN keeps its payload and comes back quiet, as ggml's
// conversion (a float multiply on the NaN) leaves it.
func F16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f && man != 0:
		return math.Float32frombits(sign | 0x7fc00000 | man<<13)
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
	case man == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: normalise the mantissa into float32's wider exponent range.
	e := uint32(113)
	for man&0x400 == 0 {
		man <<= 1
		e--
	}
	return math.Float32frombits(sign | e<<23 | (man&0x3ff)<<13)
}

// F32ToF16 narrows to binary16 rounding to nearest, ties to even; values
// beyond the half range become infinities and every NaN becomes the quiet
// NaN 0x7e00 with its sign (what ggml_fp32_to_fp16 produces).
func F32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	man := b & 0x7fffff
	if exp == 0xff {
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 112 // rebias 127 -> 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		if e < -10 {
			return sign // below half the smallest subnormal
		}
		// Half subnormals count units of 2^-24: shift the 24-bit
		// significand down; a carry into bit 10 yields the smallest normal.
		return sign | uint16(roundShiftEven(man|0x800000, uint32(14-e)))
	}
	// A carry out of the mantissa bumps the exponent, up to infinity.
	return sign | uint16(roundShiftEven(uint32(e)<<23|man, 13))
}

// roundShiftEven is v >> shift rounded to nearest, ties to even (shift >= 1,
// v < 2^31). Adding just under half, plus the bit that will become the
// lowest, carries exactly when the dropped part exceeds half or is half of
// an odd result; no data-dependent branch, which random data would
// mispredict half the time.
func roundShiftEven(v, shift uint32) uint32 {
	return (v + (1<<(shift-1) - 1) + (v>>shift)&1) >> shift
}

// BF16ToF32 widens bfloat16 bits (the top half of a float32).
func BF16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// F32ToBF16 keeps the top 16 bits of f rounded to nearest even; a NaN is
// truncated and forced quiet, as ggml does.
func F32ToBF16(f float32) uint16 {
	u := math.Float32bits(f)
	if u&0x7fffffff > 0x7f800000 {
		return uint16(u>>16) | 64
	}
	return uint16((u + 0x7fff + (u>>16)&1) >> 16)
}

func decodeF32(src []byte, dst []float32) {
	src = src[:4*len(dst)]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
	}
}

func encodeF32(src []float32, dst []byte) {
	dst = dst[:4*len(src)]
	for i, v := range src {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
	}
}

func decodeF16(src []byte, dst []float32) {
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = F16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
	}
}

func encodeF16(src []float32, dst []byte) {
	dst = dst[:2*len(src)]
	for i, v := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], F32ToF16(v))
	}
}

func decodeBF16(src []byte, dst []float32) {
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = BF16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
	}
}

func encodeBF16(src []float32, dst []byte) {
	dst = dst[:2*len(src)]
	for i, v := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], F32ToBF16(v))
	}
}
