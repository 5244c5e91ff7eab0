package gpu

import (
	"math"

	"github.com/emberllm/ember/engine/quant"
)

// RopeAngles are the constants every backend derives from a Rope op the
// way ggml does: angles advance by ThetaScale = base^(-2/dims) per pair,
// YaRN ramps between interpolated and extrapolated angles over the pairs
// CorrLo..CorrHi, and rotated values are scaled by MScale.
type RopeAngles struct {
	ThetaScale, CorrLo, CorrHi, MScale float32
}

// Angles computes the op's RopeAngles.
func (o *Rope) Angles() RopeAngles {
	a := RopeAngles{
		ThetaScale: float32(math.Pow(float64(o.FreqBase), float64(-2/float32(o.Dims)))),
		MScale:     o.AttnFactor,
	}
	a.CorrLo, a.CorrHi = yarnCorrDims(o.Dims, o.OrigCtx, o.FreqBase, o.BetaFast, o.BetaSlow)
	if o.ExtFactor != 0 {
		// fused as llama.cpp's build computes it
		a.MScale *= quant.FMA32(float32(math.Log(float64(1/o.FreqScale))), 0.1, 1)
	}
	return a
}

// yarnCorrDims is ggml's correction range: the dims whose wavelength spans
// betaFast and betaSlow rotations over the original context (unused, and
// zero, without one).
func yarnCorrDims(dims, origCtx int, base, fast, slow float32) (float32, float32) {
	if origCtx <= 0 {
		return 0, 0
	}
	corr := func(rot float32) float32 {
		r := float32(origCtx) / (rot * 2 * float32(math.Pi))
		return float32(dims) * float32(math.Log(float64(r))) / (2 * float32(math.Log(float64(base))))
	}
	start := float32(math.Floor(float64(corr(fast))))
	end := float32(math.Ceil(float64(corr(slow))))
	return max(0, start), min(float32(dims-1), end)
}

// CosSin fills cs (Dims values) with cos and sin, times MScale, of each
// rotated pair's angle at position pos, in ggml's arithmetic: a float32
// angle advanced by multiplying with ThetaScale, divided by the pair's
// frequency factor (factors, nil without), YaRN's ramp between the
// interpolated and extrapolated angles, and glibc's sincosf. a is
// o.Angles(). Backends that must match the CPU bit for bit use it as is.
func (o *Rope) CosSin(cs []float32, pos int, a RopeAngles, factors []float32) {
	theta := float32(pos)
	for i0 := 0; i0 < o.Dims; i0 += 2 {
		extrap := theta
		if factors != nil {
			extrap = theta / factors[i0/2]
		}
		interp := o.FreqScale * extrap
		th := interp
		if o.ExtFactor != 0 {
			y := (float32(i0/2) - a.CorrLo) / max(0.001, a.CorrHi-a.CorrLo)
			mix := (1 - min(1, max(0, y))) * o.ExtFactor
			th = quant.FMA32(interp, 1-mix, extrap*mix) // fused as in llama.cpp's build
		}
		sin, cos := sincosLibm(th)
		cs[i0] = cos * a.MScale
		cs[i0+1] = sin * a.MScale
		theta *= a.ThetaScale
	}
}
