package quant

import "math"

// fma32 returns x·y+z rounded once to float32, as the FMA instructions of
// the CPU compute it (VFMADD on amd64, FMLA on arm64). Go has no float32
// FMA, and rounding math.FMA's float64 result to float32 again can miss by
// one ulp where the first rounding lands exactly halfway between two
// float32 values; the pure-Go kernels that must match the assembly bit for
// bit use this instead.
func fma32(x, y, z float32) float32 {
	p := float64(x) * float64(y) // exact: 24+24 significant bits
	zz := float64(z)
	s := p + zz
	// TwoSum: e is what the float64 sum dropped, so p+z = s+e exactly.
	bv := s - p
	e := (p - (s - bv)) + (zz - bv)
	r := float32(s)
	if e == 0 {
		return r
	}
	d := s - float64(r)
	if d == 0 {
		// s is a float32 and e is below half of its float64 ulp.
		return r
	}
	other := math.Nextafter32(r, float32(math.Copysign(math.Inf(1), d)))
	if 2*s != float64(r)+float64(other) {
		// Not a tie, so rounding s or s+e to float32 agrees.
		return r
	}
	// s is halfway between r and other: the exact sum lies on e's side.
	if (e > 0) == (other > r) {
		return other
	}
	return r
}
