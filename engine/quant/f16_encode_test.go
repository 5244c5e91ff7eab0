package quant

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestEncodeF16MatchesScalar: EncodeF16 gives F32ToF16 of every value
// (and RoundF16 its widened value),
// bit for bit, on random values of every magnitude half-precision meets
// (normal, subnormal, past the largest half, ties between two halves,
// zeros, infinities) at every length of a step and its tail; a NaN stays
// a NaN.
func TestEncodeF16MatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), 65504, 65520, 65519.99, -70000,
		6.1035156e-05, 5.9604645e-08, 2.9802322e-08, 2.9802326e-08, 1e-9, 1 + 1.0/2048, 1 + 3.0/2048}
	for _, n := range []int{1, 7, 8, 9, 16, 31, 64, 1000} {
		src := make([]float32, n)
		for i := range src {
			switch rng.IntN(4) {
			case 0:
				src[i] = special[rng.IntN(len(special))]
			case 1: // a tie: halfway between two halves
				h := uint16(rng.IntN(0x7bff))
				src[i] = (F16ToF32(h) + F16ToF32(h+1)) / 2
			default:
				src[i] = float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(48)-30)))
			}
		}
		got := make([]uint16, n+1)
		got[n] = 0xabcd
		EncodeF16(got[:n], src)
		rounded := make([]float32, n)
		RoundF16(rounded, src)
		for i, v := range src {
			if want := F32ToF16(v); got[i] != want {
				t.Errorf("n=%d value %d (%g): %#04x, F32ToF16 %#04x", n, i, v, got[i], want)
			}
			if want := F16ToF32(F32ToF16(v)); math.Float32bits(rounded[i]) != math.Float32bits(want) {
				t.Errorf("n=%d value %d (%g): rounded to %g, want %g", n, i, v, rounded[i], want)
			}
		}
		if got[n] != 0xabcd {
			t.Errorf("n=%d: wrote past the values", n)
		}
	}
	nan := []float32{float32(math.NaN()), 0, 0, 0, 0, 0, 0, 0}
	out := make([]uint16, 8)
	EncodeF16(out, nan)
	if F16ToF32(out[0]) == F16ToF32(out[0]) {
		t.Errorf("NaN narrowed to %#04x", out[0])
	}
}
