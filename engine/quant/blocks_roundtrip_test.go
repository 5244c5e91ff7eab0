package quant

import (
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// Round trips: quantize then dequantize, and bound the error. The relative
// RMS bounds sit ~12% above what ggml's own encoders reach on N(0,1) data
// (see TestGGMLErrorTable); single tensors of real weights, with their
// outliers, get 40% more room.
var rmsBound = map[gguf.TensorType]float64{
	gguf.F32: 0, gguf.F16: 2.4e-4, gguf.BF16: 1.9e-3,
	gguf.Q4_0: 0.097, gguf.Q4_1: 0.088, gguf.Q5_0: 0.048, gguf.Q5_1: 0.043,
	gguf.Q8_0: 0.0061, gguf.Q8_1: 0.0061,
	gguf.Q2_K: 0.335, gguf.Q3_K: 0.17, gguf.Q4_K: 0.08, gguf.Q5_K: 0.041,
	gguf.Q6_K: 0.02, gguf.Q8_K: 0.0078,
}

func TestRoundTripNormal(t *testing.T) {
	x := normalFloats(5, 1<<16)
	for _, typ := range encodeTypes {
		_, y := roundTrip(t, typ, x)
		if e := relRMS(x, y); e > rmsBound[typ] {
			t.Errorf("%s: relative RMS error %.4g > %.4g", typ, e, rmsBound[typ])
		}
	}
}

func TestRoundTripStories(t *testing.T) {
	names, ws := storiesWeights(t)
	for _, typ := range encodeTypes {
		for i, w := range ws {
			if len(w)%typ.BlockSize() != 0 {
				continue
			}
			_, y := roundTrip(t, typ, w)
			if e := relRMS(w, y); e > 1.4*rmsBound[typ] {
				t.Errorf("%s on %s: relative RMS error %.4g > %.4g", typ, names[i], e, 1.4*rmsBound[typ])
			}
		}
	}
}

// TestLegacyErrorPerValue bounds every value's error by its block's grid
// step: half a step for round-to-nearest, a full step where the top level
// is clamped (the _0 kinds put the extreme at -8 or -16 and clip the
// opposite end), plus the f16 rounding of the scale.
func TestLegacyErrorPerValue(t *testing.T) {
	x := awkwardFloats(9, 256*48)
	steps := map[gguf.TensorType]float64{gguf.Q4_0: 8, gguf.Q5_0: 16, gguf.Q8_0: 127 * 2, gguf.Q8_1: 127 * 2,
		gguf.Q4_1: 15 * 2, gguf.Q5_1: 31 * 2}
	for typ, div := range steps {
		_, y := roundTrip(t, typ, x)
		for b := 0; b < len(x)/32; b++ {
			xs, ys := x[32*b:32*b+32], y[32*b:32*b+32]
			lo, hi := minMax32(xs)
			span := math.Max(math.Abs(float64(lo)), math.Abs(float64(hi)))
			mErr := 0.0 // the f16 rounding of the _1 kinds' minimum
			if typ == gguf.Q4_1 || typ == gguf.Q5_1 {
				span = float64(hi - lo)
				mErr = math.Abs(float64(lo)) * math.Ldexp(1, -11)
			}
			// The f16 rounding of d (and of m) carried across the whole
			// range of levels: 2^-11 relative, or for subnormal halves
			// 2^-25 absolute per level.
			limit := span/div + span*math.Ldexp(1, -10) + 128*math.Ldexp(1, -24) + mErr
			for i := range xs {
				if e := math.Abs(float64(xs[i]) - float64(ys[i])); e > limit {
					t.Fatalf("%s block %d value %d: %g came back %g (error %g > %g)", typ, b, i, xs[i], ys[i], e, limit)
				}
			}
		}
	}
}

// TestZeroAndConstantBlocks: an all-zero block comes back all zero, and a
// constant block keeps its value to within the format's precision.
func TestZeroAndConstantBlocks(t *testing.T) {
	for _, typ := range encodeTypes {
		n := 2 * 256
		x := make([]float32, n)
		for i := 256; i < n; i++ {
			x[i] = -1.375
		}
		_, y := roundTrip(t, typ, x)
		for i := 0; i < 256; i++ {
			if y[i] != 0 {
				t.Fatalf("%s: zero block decoded value %d as %g", typ, i, y[i])
			}
		}
		if e := relRMS(x[256:], y[256:]); e > rmsBound[typ]/4+1e-3 {
			t.Errorf("%s: constant block error %g", typ, e)
		}
	}
}
