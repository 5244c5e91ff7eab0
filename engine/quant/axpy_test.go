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

// TestFMAScaledF16Rows: the rows kernel gives what FMAScaledF16 of each
// row in turn gives in the pure-Go loop, bit for bit, for head sizes of
// 8 (one step), odd ones (only the value-by-value tail) and longer ones,
// lanes of 16 and 64 (attention's two orders), rows past one pass over
// the lanes, and a stride wider than a row (a cache row holding other
// heads).
func TestFMAScaledF16Rows(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 4))
	for _, D := range []int{8, 3, 17, 64, 128} {
		for _, L := range []int{16, 64} {
			n, stride := 1+r.IntN(150), 2*D+2*r.IntN(40)
			v := make([]byte, (n-1)*stride+2*D)
			for i := 0; i+1 < len(v); i += 2 {
				h := F32ToF16(float32(r.NormFloat64()))
				v[i], v[i+1] = byte(h), byte(h>>8)
			}
			sc := make([]float32, n)
			for j := range sc {
				sc[j] = float32(r.Float64())
			}
			acc := make([]float32, L*D)
			for i := range acc {
				acc[i] = float32(r.NormFloat64())
			}
			got, want := append([]float32(nil), acc...), append([]float32(nil), acc...)
			FMAScaledF16Rows(got, L, D, sc, v, stride, n)
			for j := range n {
				l := j % L
				fmaScaledF16Go(want[l*D:(l+1)*D], sc[j], v[j*stride:])
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("D=%d L=%d n=%d: accumulator %d is %g, row by row %g", D, L, n, i, got[i], want[i])
				}
			}
		}
	}
}
