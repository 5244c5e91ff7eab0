package quant

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFMAScaledF16 checks the kernel against the Go loop bit for bit and
// against float64 arithmetic, at lengths that leave every tail.
func TestFMAScaledF16(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{1, 5, 15, 16, 17, 31, 64, 129} {
		v := make([]byte, 2*n)
		vals := make([]float32, n)
		for i := range vals {
			h := F32ToF16(float32(r.NormFloat64()))
			v[2*i], v[2*i+1] = byte(h), byte(h>>8)
			vals[i] = F16ToF32(h)
		}
		a := float32(r.Float64() + 0.1)
		y := make([]float32, n)
		for i := range y {
			y[i] = float32(r.NormFloat64())
		}
		got, want := append([]float32(nil), y...), append([]float32(nil), y...)
		FMAScaledF16(got, a, v)
		fmaScaledF16Go(want, a, v)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Errorf("n=%d i=%d: %g, Go loop %g", n, i, got[i], want[i])
			}
			ref := float64(y[i]) + float64(a)*float64(vals[i])
			if d := math.Abs(float64(got[i]) - ref); d > 1e-6*(1+math.Abs(ref)) {
				t.Errorf("n=%d i=%d: %g, float64 %g", n, i, got[i], ref)
			}
		}
	}
}
