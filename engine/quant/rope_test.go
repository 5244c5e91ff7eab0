package quant

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRopeRowAsmMatchesGo: RopeRow with the assembly gives the Go loop's
// rotations bit for bit, both modes, rotated widths with and without a
// tail past the kernels' steps, in place and into another row, values past
// dims untouched; zeros of both signs among the inputs.
func TestRopeRowAsmMatchesGo(t *testing.T) {
	if !useAsm || !hasRopeAsm {
		t.Skip("no rope assembly on this machine")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, neox := range []bool{false, true} {
		for _, dims := range []int{2, 6, 8, 16, 24, 32, 40, 64, 128} {
			for _, inPlace := range []bool{false, true} {
				hd := dims + 4
				x := make([]float32, hd)
				for i := range x {
					x[i] = float32(rng.NormFloat64() * 10)
					if rng.IntN(8) == 0 {
						x[i] = float32(math.Copysign(0, float64(rng.IntN(2)*2-1)))
					}
				}
				cs := make([]float32, dims)
				for p := 0; p < dims/2; p++ {
					th := rng.Float64() * 100
					cs[2*p], cs[2*p+1] = float32(math.Cos(th)), float32(math.Sin(th))
					if rng.IntN(8) == 0 {
						cs[2*p+1] = 0
					}
				}
				want := make([]float32, hd)
				copy(want, x)
				withAsm(false, func() { RopeRow(want, append([]float32(nil), x...), cs, dims, neox) })
				got := make([]float32, hd)
				for i := range got {
					got[i] = -7
				}
				src := append([]float32(nil), x...)
				if inPlace {
					got = src
				}
				RopeRow(got, src, cs, dims, neox)
				for i := 0; i < dims; i++ {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Errorf("neox=%v dims=%d inPlace=%v value %d: %g, Go %g", neox, dims, inPlace, i, got[i], want[i])
					}
				}
				for i := dims; i < hd; i++ {
					if keep := map[bool]float32{false: -7, true: x[i]}[inPlace]; got[i] != keep {
						t.Errorf("neox=%v dims=%d: value %d past dims changed to %g", neox, dims, i, got[i])
					}
				}
			}
		}
	}
}
