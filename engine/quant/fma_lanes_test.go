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
			// the F16 variant against FMALanes on the widened values
			h := make([]byte, 2*n)
			for i := range x {
				v := F32ToF16(x[i])
				h[2*i], h[2*i+1] = byte(v), byte(v>>8)
				x[i] = F16ToF32(v)
			}
			gh, gg, wh := make([]float32, L), make([]float32, L), make([]float32, L)
			FMALanesF16(gh, h, y)
			withAsm(false, func() { FMALanesF16(gg, h, y) })
			fmaLanesGo(wh, x, y)
			for i := range gh {
				if math.Float32bits(gh[i]) != math.Float32bits(wh[i]) || math.Float32bits(gg[i]) != math.Float32bits(wh[i]) {
					t.Errorf("F16 L=%d n=%d lane %d: %g, Go %g", L, n, i, gh[i], wh[i])
				}
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Errorf("L=%d n=%d lane %d: %g, Go %g", L, n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestSumLanes16Cols requires the row-against-row fold to equal
// SumLanes16 of each gathered column, bit for bit.
func TestSumLanes16Cols(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 16))
	for _, D := range []int{1, 7, 64, 128} {
		a := make([]float32, 16*D)
		for i := range a {
			a[i] = float32(r.NormFloat64()) * float32(1+r.IntN(1000))
		}
		y := make([]float32, D)
		SumLanes16Cols(y, a)
		for d := range y {
			var col [16]float32
			for l := range col {
				col[l] = a[l*D+d]
			}
			if want := SumLanes16(&col); math.Float32bits(y[d]) != math.Float32bits(want) {
				t.Errorf("D=%d column %d: %g, want %g", D, d, y[d], want)
			}
		}
	}
}

// TestVecStepsAsmMatchesGo holds DotF32Vec and DotF16Vec with the fused
// steps-and-fold kernel to their Go path (FMALanes, then FoldLanes64) bit
// for bit, at lengths below, at and past whole 64-value steps, on values
// of mixed magnitude so that a fold in another order would show.
func TestVecStepsAsmMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 27))
	for _, n := range []int{1, 63, 64, 65, 100, 128, 136, 191, 192, 256, 1031} {
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i] = float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(24)-12)))
			y[i] = float32(r.NormFloat64())
		}
		for name, f := range map[string]func(x, y []float32) float32{"DotF32Vec": DotF32Vec, "DotF16Vec": DotF16Vec} {
			got := f(x, y)
			var want float32
			withAsm(false, func() { want = f(x, y) })
			if math.Float32bits(got) != math.Float32bits(want) {
				t.Errorf("%s n=%d: %g, Go %g", name, n, got, want)
			}
		}
	}
}
