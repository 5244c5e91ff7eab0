package quant

import "math"

// FMA32 returns a*b+c rounded once to float32, as the x86 vfmadd and ARM
// fmla instructions do. llama.cpp's SIMD loops accumulate with fused
// multiply-adds, so matching its sums bit for bit needs the single
// rounding; Go has no float32 FMA, and rounding math.FMA's float64 result
// again to float32 is wrong in the rare case where that result lies
// exactly halfway between two float32 values (musl's fmaf, same idea).
func FMA32(a, b, c float32) float32 {
	xy := float64(a) * float64(b) // exact: 48 significant bits
	r := xy + float64(c)
	u := math.Float64bits(r)
	e := u >> 52 & 0x7ff
	// Not a halfway case of float32 rounding, NaN/Inf, or an exact sum:
	// the float64 sum rounds correctly.
	if u&0x1fffffff != 0x10000000 || e == 0x7ff || (r-xy == float64(c) && r-float64(c) == xy) {
		return float32(r)
	}
	// r is inexact and sits on a midpoint: nudge it toward the true
	// value so the float32 rounding goes the right way.
	var err float64
	neg := u>>63 != 0
	if neg == (float64(c) > xy) {
		err = xy - r + float64(c)
	} else {
		err = float64(c) - r + xy
	}
	if neg == (err < 0) {
		u++
	} else {
		u--
	}
	return float32(math.Float64frombits(u))
}
