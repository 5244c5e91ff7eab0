package cpu

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/quant"
)

// TestSwigluRowMatchesLoop holds the assembly to the Go expression bit for
// bit, on random values and on the clamp edges of expf (overflow, the
// flush to zero, the two-step scaling near -87.3, NaN, infinities).
func TestSwigluRowMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	edges := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 88.72283, -88.72283, 88.7229, -88.7229, 87.33654, 87.3365, 87.34,
		87.335, 87.3366, 87.33, 90, -90, 200, -200, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e-30, -1e-30, 3.4e38}
	for _, n := range []int{1, 7, 8, 9, 31, 64, 1001} {
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i] = float32(r.NormFloat64() * 8)
			if i%5 == 0 {
				x[i] = edges[r.IntN(len(edges))]
			}
			y[i] = float32(r.NormFloat64())
		}
		got := make([]float32, n)
		swigluRow(x, y, got)
		for i := range got {
			want := siluGGML(x[i]) * y[i]
			if math.Float32bits(got[i]) != math.Float32bits(want) && !(got[i] != got[i] && want != want) {
				t.Errorf("n=%d x=%g y=%g: %g (%08x), Go %g (%08x)", n, x[i], y[i], got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
			}
		}
	}
}

// expSub (softmax's exponentials, AVX2 where the CPU has it) equals
// quant.ExpGGML(x - m) bit for bit, on scores of a softmax's range (down
// to subnormal and zero results, masked -Inf) and on edges.
func TestExpSubMatchesExpGGML(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	edges := []float32{0, -1, -87.33654, -87.3365, -88.72283, -103.2, -103.97, -104, -150, -200,
		float32(math.Inf(-1)), float32(math.NaN()), 1, 88.7, 90, -1e-30}
	for _, n := range []int{1, 7, 8, 9, 16, 33, 1001} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(r.NormFloat64() * 30)
			if i%4 == 0 {
				x[i] = edges[r.IntN(len(edges))]
			}
		}
		for _, m := range []float32{0, 3.5, -2} {
			got := slices.Clone(x)
			expSub(got, m)
			for i, v := range x {
				want := quant.ExpGGML(v - m)
				if math.Float32bits(got[i]) != math.Float32bits(want) && !(got[i] != got[i] && want != want) {
					t.Errorf("n=%d x=%g m=%g: %g (%08x), ExpGGML %g (%08x)", n, v, m, got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
				}
			}
		}
	}
}
