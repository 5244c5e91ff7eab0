package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// MeanSD against the two-pass formula written out on random samples, and
// its edge cases.
func TestMeanSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		n := 2 + rng.IntN(50)
		xs := make([]float64, n)
		var sum float64
		for i := range xs {
			xs[i] = rng.NormFloat64()*10 + 3
			sum += xs[i]
		}
		mean := sum / float64(n)
		var ss float64
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		m, sd := MeanSD(xs)
		if math.Abs(m-mean) > 1e-9 || math.Abs(sd-math.Sqrt(ss/float64(n-1))) > 1e-9 {
			t.Fatalf("MeanSD(%v) = %v, %v", xs, m, sd)
		}
	}
	if m, sd := MeanSD([]float64{4}); m != 4 || sd != 0 {
		t.Errorf("one value: %v ± %v", m, sd)
	}
	if m, sd := MeanSD(nil); !math.IsNaN(m) || !math.IsNaN(sd) {
		t.Errorf("no values: %v ± %v", m, sd)
	}
}
