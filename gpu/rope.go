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
