package gputest

import "math"

// half64 is the binary16 value nearest to x (ties to even), computed
// directly in float64: an independent check of a backend's f16 rounding.
func half64(x float64) float64 {
	a := math.Abs(x)
	if a >= 65520 { // halfway between the largest half and 2^16 rounds up
		return math.Copysign(math.Inf(1), x)
	}
	e := -14
	if a >= math.Ldexp(1, -14) {
		_, exp := math.Frexp(a) // a = f·2^exp, f in [0.5, 1)
		e = exp - 1
	}
	ulp := math.Ldexp(1, e-10)
	return math.Copysign(math.RoundToEven(a/ulp)*ulp, x)
}

// decodeHalf widens binary16 bits (independently of the backends).
func decodeHalf(h uint16) float64 {
	s := 1.0
	if h&0x8000 != 0 {
		s = -1
	}
	e := int(h>>10) & 31
	m := float64(h & 0x3ff)
	switch e {
	case 0:
		return s * math.Ldexp(m, -24)
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return s * math.Inf(1)
	}
	return s * math.Ldexp(1024+m, e-25)
}
