package gputest

import (
	"math"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
)

// Matrix-product references. A backend may multiply float activations
// directly or, like llama.cpp's CPU backend, quantize them first to the
// 8-bit format paired with the weight type (Q8_0, Q8_1, Q8_K: one scale
// per block, values rounded to amax/127 steps). Each output must be close
// to one of two float64 references — exact activations, or activations as
// that 8-bit format holds them — within float32 accumulation error, and
// within the analytic bound of 8-bit quantization of the exact one.

// productRef is one output of a product: its references and tolerances.
type productRef struct {
	exact, q8  float64 // Σ w·x with exact and with 8-bit activations
	tight      float64 // float32 accumulation (and f16 block sums) error
	quantBound float64 // worst-case error of 8-bit activations
}

// actRef holds one activation column, exact and as the 8-bit format of
// weight type wt represents it.
type actRef struct {
	x, xq []float64
	amax  []float64 // per activation block: max |x|
	bs    int
	// rel is the relative rounding of each value when activations are
	// rounded to the half type of F16/BF16 weights (as llama.cpp does).
	rel float64
}

func newActRef(wt gguf.TensorType, x []float64) actRef {
	at := quant.ActType(wt)
	r := actRef{x: x, xq: x, bs: at.BlockSize()}
	switch wt {
	case gguf.F16:
		r.rel = 0x1p-11
	case gguf.BF16:
		r.rel = 0x1p-8
	}
	if at == gguf.F32 && r.rel == 0 {
		return r
	}
	f := make([]float32, len(x))
	for i, v := range x {
		f[i] = float32(v)
	}
	buf := make([]byte, at.RowBytes(len(x)))
	quant.QuantizeAct(wt, f, buf)
	if err := quant.Dequantize(at, buf, f); err != nil {
		panic(err) // the activation formats always decode
	}
	r.xq = make([]float64, len(x))
	for i, v := range f {
		r.xq[i] = float64(v)
	}
	if r.rel > 0 {
		return r
	}
	for b := 0; b < len(x); b += r.bs {
		m := 0.0
		for _, v := range x[b : b+r.bs] {
			m = math.Max(m, math.Abs(v))
		}
		r.amax = append(r.amax, m)
	}
	return r
}

// dot is one output: weight row w against activation a.
func (a actRef) dot(wt gguf.TensorType, w []float64) productRef {
	var p productRef
	var abs float64
	for i, wv := range w {
		p.exact += wv * a.x[i]
		p.q8 += wv * a.xq[i]
		abs += math.Abs(wv * a.x[i])
	}
	K := float64(len(w))
	// float32 accumulation: at most K roundings of 2^-24 of the running
	// absolute sum, plus the per-block float scaling.
	p.tight = (K*6e-8+1e-6)*abs + 1e-6
	if a.rel > 0 {
		p.quantBound = 1.02*abs*a.rel + p.tight
		return p
	}
	if a.amax == nil {
		p.quantBound = p.tight
		return p
	}
	var bound float64
	for b, m := range a.amax {
		var wabs, wmax, xabs float64
		for i := b * a.bs; i < (b+1)*a.bs; i++ {
			wabs += math.Abs(w[i])
			wmax = math.Max(wmax, math.Abs(w[i]))
			xabs += math.Abs(a.xq[i])
		}
		// Rounding to steps of amax/127 is off by at most half a step;
		// the step itself is stored as f16 for Q8_0/Q8_1 (2^-11 relative).
		bound += wabs * m * (0.5/127 + 1.0/2048)
		if quant.ActType(wt) == gguf.Q8_1 {
			// Q8_1 also stores d·Σq as f16, which meets the weight's
			// block minimum (at most the largest |w| of the block).
			p.tight += wmax * xabs / 2048
		}
	}
	p.quantBound = 1.02*bound + p.tight
	return p
}

// checkProducts compares outputs with their references.
func checkProducts(t testingT, what string, got []float64, refs []productRef) {
	t.Helper()
	bad := 0
	for i, r := range refs {
		g := got[i]
		ok := math.Abs(g-r.exact) <= r.tight || math.Abs(g-r.q8) <= r.tight
		ok = ok && math.Abs(g-r.exact) <= r.quantBound
		if !ok {
			if bad < 5 {
				t.Errorf("%s[%d] = %.7g, want %.7g (exact activations) or %.7g (8-bit activations), tol %.3g; 8-bit bound %.3g",
					what, i, g, r.exact, r.q8, r.tight, r.quantBound)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d outputs wrong", what, bad, len(refs))
	}
}

// testingT is the part of testing.TB the checks use.
type testingT interface {
	Helper()
	Errorf(format string, args ...any)
}
