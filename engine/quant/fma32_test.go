package quant

import (
	"math"
	"math/big"
	"math/rand"
	randv2 "math/rand/v2"
	"testing"
)

// fmaExact is a*b+c computed exactly with big floats, rounded once.
func fmaExact(a, b, c float32) float32 {
	x := new(big.Float).SetPrec(200).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetPrec(200).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetPrec(200).SetFloat64(float64(c)))
	f, _ := x.Float32()
	return f
}

func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	check := func(a, b, c float32) {
		if got, want := FMA32(a, b, c), fmaExact(a, b, c); got != want && !(got == 0 && want == 0) {
			t.Fatalf("FMA32(%g, %g, %g) = %g, want %g", a, b, c, got, want)
		}
	}
	for i := 0; i < 200000; i++ {
		a := float32(rng.NormFloat64())
		b := float32(rng.NormFloat64() * math.Exp(rng.NormFloat64()*4))
		c := float32(rng.NormFloat64())
		check(a, b, c)
		// halfway cases: c cancels most of a*b
		check(a, b, -float32(float64(a)*float64(b)))
		// a product one bit past float32 precision plus a power of two
		p := float32(1 + float64(rng.Intn(1<<12))/(1<<12))
		check(p, p, float32(math.Ldexp(1, rng.Intn(8)-4)))
	}
}

// TestFMA32Ties checks FMA32 on integer-valued and widely scaled
// operands and on a tie that rounding through float64 gets wrong.
func TestFMA32Ties(t *testing.T) {
	r := randv2.New(randv2.NewPCG(3, 7))
	exact := fmaExact
	check := func(x, y, z float32) {
		if got, want := FMA32(x, y, z), exact(x, y, z); math.Float32bits(got) != math.Float32bits(want) && !(got == 0 && want == 0) {
			t.Fatalf("FMA32(%g, %g, %g) = %g, want %g", x, y, z, got, want)
		}
	}
	for i := 0; i < 200000; i++ {
		x := float32(r.IntN(65536) - 32768)
		y := float32(r.NormFloat64() * math.Exp2(float64(r.IntN(20)-10)))
		z := float32(r.NormFloat64() * math.Exp2(float64(r.IntN(40)-20)))
		check(x, y, z)
	}
	// x·y = 2^-24 - 2^-70 and z = 1+2^-23: the float64 sum drops the
	// 2^-70 and lands on the tie 1+2^-23+2^-24, which float32 rounds to
	// even (up), where the exact sum, just below the tie, rounds down.
	x, y, z := float32((1+0x1p-23)*0x1p-12), float32((1-0x1p-23)*0x1p-12), float32(1+0x1p-23)
	if float32(math.FMA(float64(x), float64(y), float64(z))) == exact(x, y, z) {
		t.Fatal("the tie case does not tie")
	}
	check(x, y, z)
	check(-x, y, -z)
}
