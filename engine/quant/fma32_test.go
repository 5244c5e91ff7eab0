package quant

import (
	"math"
	"math/big"
	"math/rand"
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
