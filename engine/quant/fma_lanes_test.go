package quant

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFMALanesAsmMatchesGo holds the assembly to the Go loop bit for bit.
func TestFMALanesAsmMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, L := range []int{16, 64} {
		for _, steps := range []int{1, 2, 7} {
			n := L * steps
			x, y := make([]float32, n), make([]float32, n)
			for i := range x {
				x[i], y[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
			}
			got, want := make([]float32, L), make([]float32, L)
			for i := range got {
				got[i] = float32(r.NormFloat64())
				want[i] = got[i]
			}
			FMALanes(got, x, y)
			fmaLanesGo(want, x, y)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Errorf("L=%d n=%d lane %d: %g, Go %g", L, n, i, got[i], want[i])
				}
			}
		}
	}
}
