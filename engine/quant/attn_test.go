package quant

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestScoresF16 holds ScoresF16 (assembly where this machine has it, and
// pure Go) to DotF16VecH and DotGemm16H called row by row, bit for bit,
// on random rows of widths with and without a tail past the last 64-value
// step, strides wider than a row, and a few to many rows.
func TestScoresF16(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for _, d := range []int{8, 16, 48, 64, 80, 128, 192, 200} {
		for _, n := range []int{1, 3, 17, 130} {
			stride := 2*d + 2*r.IntN(5)
			k := make([]byte, n*stride)
			for i := 0; i+1 < len(k); i += 2 {
				binary.LittleEndian.PutUint16(k[i:], F32ToF16(float32(r.NormFloat64())))
			}
			q := make([]float32, d)
			for i := range q {
				q[i] = F16ToF32(F32ToF16(float32(r.NormFloat64())))
			}
			for _, lanes := range []int{16, 64} {
				if lanes == 16 && d%16 != 0 {
					continue
				}
				want := make([]float32, n)
				for j := range want {
					row := k[j*stride : j*stride+2*d]
					if lanes == 16 {
						want[j] = DotGemm16H(row, q)
					} else {
						want[j] = DotF16VecH(row, q)
					}
				}
				for _, asm := range []bool{true, false} {
					got := make([]float32, n)
					withAsm(asm, func() { ScoresF16(got, q, k, stride, lanes) })
					for j := range got {
						if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
							t.Fatalf("d=%d n=%d lanes=%d asm=%v row %d: %g, want %g", d, n, lanes, asm, j, got[j], want[j])
						}
					}
				}
			}
		}
	}
}

// TestFoldLanes64Cols holds FoldLanes64Cols to FoldLanes64 of each
// gathered column, bit for bit, for widths in and out of eights.
func TestFoldLanes64Cols(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	for _, d := range []int{1, 7, 8, 9, 64, 100, 128} {
		a := make([]float32, 64*d)
		for i := range a {
			a[i] = float32(r.NormFloat64()) * float32(math.Exp2(float64(r.IntN(20)-10)))
		}
		want := make([]float32, d)
		var lanes [64]float32
		for i := range want {
			for l := range lanes {
				lanes[l] = a[l*d+i]
			}
			want[i] = FoldLanes64(&lanes)
		}
		for _, asm := range []bool{true, false} {
			got := make([]float32, d)
			withAsm(asm, func() { FoldLanes64Cols(got, a) })
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("d=%d asm=%v column %d: %g, want %g", d, asm, i, got[i], want[i])
				}
			}
		}
	}
}
