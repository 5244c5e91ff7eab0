package quant

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// halfValue is the exact value of finite half bits, from the binary16
// definition (independent of F16ToF32's bit shuffling).
func halfValue(h uint16) float64 {
	exp, man := int(h>>10)&0x1f, float64(h&0x3ff)
	v := math.Ldexp(man, -24) // subnormal: man * 2^-24
	if exp != 0 {
		v = math.Ldexp(1024+man, exp-25)
	}
	if h&0x8000 != 0 {
		v = -v
	}
	return v
}

func TestF16ToF32AllHalves(t *testing.T) {
	for i := range 65536 {
		h := uint16(i)
		got := F16ToF32(h)
		bits := math.Float32bits(got)
		switch exp, man := h>>10&0x1f, uint32(h&0x3ff); {
		case exp == 0x1f && man != 0: // NaN: sign and payload kept, made quiet
			want := uint32(h&0x8000)<<16 | 0x7fc00000 | man<<13
			if bits != want {
				t.Fatalf("F16ToF32(%#04x) = %#08x, want NaN %#08x", h, bits, want)
			}
		case exp == 0x1f:
			if !math.IsInf(float64(got), 0) || math.Signbit(float64(got)) != (h&0x8000 != 0) {
				t.Fatalf("F16ToF32(%#04x) = %g, want infinity", h, got)
			}
		default:
			if want := halfValue(h); float64(got) != want || math.Signbit(float64(got)) != (h&0x8000 != 0) {
				t.Fatalf("F16ToF32(%#04x) = %g, want %g", h, got, want)
			}
		}
	}
}

// slowHalf rounds f to binary16 by searching the sorted table of all
// positive halves for the nearest one, ties to the even bit pattern. The
// infinity sits in the table as 65536, the next step of the top binade, so
// overflow rounds like any other value.
type slowHalf struct{ vals []float64 }

func newSlowHalf() *slowHalf {
	s := &slowHalf{vals: make([]float64, 0x7c01)}
	for h := range 0x7c00 {
		s.vals[h] = halfValue(uint16(h))
	}
	s.vals[0x7c00] = 65536
	return s
}

func (s *slowHalf) bits(f float32) uint16 {
	sign := uint16(0)
	if math.Signbit(float64(f)) {
		sign = 0x8000
	}
	a := math.Abs(float64(f))
	switch {
	case math.IsNaN(a):
		return sign | 0x7e00
	case a >= 65536:
		return sign | 0x7c00
	}
	i := sort.SearchFloat64s(s.vals, a) // first vals[i] >= a
	if s.vals[i] == a {
		return sign | uint16(i)
	}
	lo, hi := i-1, i
	dl, dh := a-s.vals[lo], s.vals[hi]-a
	if dl < dh || (dl == dh && lo%2 == 0) {
		return sign | uint16(lo)
	}
	return sign | uint16(hi)
}

func TestF32ToF16(t *testing.T) {
	ref := newSlowHalf()
	check := func(f float32) {
		if got, want := F32ToF16(f), ref.bits(f); got != want {
			t.Fatalf("F32ToF16(%g = %#08x) = %#04x, want %#04x", f, math.Float32bits(f), got, want)
		}
	}
	// Every half, the exact midpoints between neighbours (the ties), and one
	// float32 step either side of each midpoint.
	for h := range 0x7c00 {
		v := halfValue(uint16(h))
		for _, s := range []float32{1, -1} {
			check(s * float32(v))
			mid := float32((v + ref.vals[h+1]) / 2) // exact: halves have 11 bits
			check(s * mid)
			check(s * math.Nextafter32(mid, 0))
			check(s * math.Nextafter32(mid, 1e9))
		}
	}
	for _, f := range []float32{0, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 65519.99, 65520, 1e-8, 2.98e-8, 2.99e-8} {
		check(f)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		check(math.Float32frombits(r.Uint32()))
		check(float32(r.NormFloat64()) * float32(math.Ldexp(1, r.IntN(50)-35)))
	}
	// Narrowing a widened half gives it back (NaNs become the canonical one).
	for i := range 65536 {
		h := uint16(i)
		want := h
		if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
			want = h&0x8000 | 0x7e00
		}
		if got := F32ToF16(F16ToF32(h)); got != want {
			t.Fatalf("F32ToF16(F16ToF32(%#04x)) = %#04x", h, got)
		}
	}
}

func TestBF16(t *testing.T) {
	// slow reference: the nearer of the two bfloat16 neighbours, ties to
	// even, with the infinity as the step after the largest finite value.
	value := func(b uint32) float64 {
		if b&0x7fff == 0x7f80 {
			return math.Copysign(math.Ldexp(1, 128), float64(math.Float32frombits(b<<16)))
		}
		return float64(math.Float32frombits(b << 16))
	}
	slow := func(f float32) uint16 {
		u := math.Float32bits(f)
		if f != f {
			return uint16(u>>16) | 0x40
		}
		lo := u >> 16
		if u&0xffff == 0 {
			return uint16(lo)
		}
		hi := lo + 1
		a := float64(f)
		dl, dh := math.Abs(a-value(lo)), math.Abs(value(hi)-a)
		if dl < dh || (dl == dh && lo%2 == 0) {
			return uint16(lo)
		}
		return uint16(hi)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 1 << 20 {
		u := r.Uint32()
		if i%4 == 0 {
			u = u&^0xffff | 0x8000 // exact ties
		}
		f := math.Float32frombits(u)
		if got, want := F32ToBF16(f), slow(f); got != want {
			t.Fatalf("F32ToBF16(%#08x) = %#04x, want %#04x", u, got, want)
		}
	}
	for i := range 65536 {
		if got := math.Float32bits(BF16ToF32(uint16(i))); got != uint32(i)<<16 {
			t.Fatalf("BF16ToF32(%#04x) = %#08x", i, got)
		}
	}
}
