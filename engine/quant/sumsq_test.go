package quant

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSumSquares4AsmMatchesGo: the assembly's partial sums give the Go
// loop's sum bit for bit, at lengths with and without tails, on values
// of widely spread magnitudes (where the partials' order shows).
func TestSumSquares4AsmMatchesGo(t *testing.T) {
	if !useAsm || !hasSumSquaresAsm {
		t.Skip("no sum-of-squares assembly on this machine")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 4, 7, 8, 12, 16, 29, 128, 1024, 2051} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20)))
		}
		got := SumSquares4(x)
		var want float64
		withAsm(false, func() { want = SumSquares4(x) })
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("n=%d: %v, Go %v", n, got, want)
		}
	}
}
