package gputest

import (
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// ropeRef rotates one head x (the first dims elements) at position pos,
// from the definitions: angle pos·base^(-2i/dims)/factor_i, YaRN's ramp
// between interpolated and extrapolated angles over the correction dims
// of the original context, magnitude attn·(1+0.1·ln(1/scale)) under YaRN.
// It also returns per-element tolerances: a backend computing angles in
// float32 as ggml does (multiplying by base^(-2/dims) once per pair) has
// a relative angle error of up to about (i+3)·2^-24 at pair i.
func ropeRef(o *gpu.Rope, x []float64, pos int, ff []float64) (y, tol []float64) {
	y = append([]float64(nil), x...)
	tol = make([]float64, len(x))
	for i := range tol {
		tol[i] = 1e-7 * math.Abs(x[i])
	}
	dims := o.Dims
	base, fs, ext := float64(o.FreqBase), float64(o.FreqScale), float64(o.ExtFactor)
	mscale := float64(o.AttnFactor)
	var lo, hi float64
	if ext != 0 {
		mscale *= 1 + 0.1*math.Log(1/fs)
		corr := func(rot float64) float64 {
			return float64(dims) * math.Log(float64(o.OrigCtx)/(rot*2*math.Pi)) / (2 * math.Log(base))
		}
		lo = math.Max(0, math.Floor(corr(float64(o.BetaFast))))
		hi = math.Min(float64(dims-1), math.Ceil(corr(float64(o.BetaSlow))))
	}
	for i := 0; i < dims/2; i++ {
		extrap := float64(pos) * math.Pow(base, -2*float64(i)/float64(dims))
		if ff != nil {
			extrap /= ff[i]
		}
		theta := fs * extrap
		if ext != 0 {
			ramp := 1 - math.Min(1, math.Max(0, (float64(i)-lo)/math.Max(0.001, hi-lo)))
			mix := ramp * ext
			theta = theta*(1-mix) + extrap*mix
		}
		a, b := 2*i, 2*i+1
		if o.Mode == gpu.RopeNeoX {
			a, b = i, i+dims/2
		}
		c, s := math.Cos(theta)*mscale, math.Sin(theta)*mscale
		y[a] = x[a]*c - x[b]*s
		y[b] = x[a]*s + x[b]*c
		angErr := math.Abs(theta)*float64(i+3)*math.Ldexp(1.5, -24) + 1e-6
		t := (math.Abs(x[a]) + math.Abs(x[b])) * mscale * (angErr + 4e-7)
		tol[a], tol[b] = t, t
	}
	return y, tol
}

func testRope(t *testing.T, be gpu.Backend) {
	type rcase struct {
		name string
		op   gpu.Rope
		ff   bool
		pos  int
	}
	var cases []rcase
	for _, mode := range []gpu.RopeMode{gpu.RopeNormal, gpu.RopeNeoX} {
		m := name("mode", mode)
		cases = append(cases,
			rcase{m + "/plain", gpu.Rope{Dims: 64, Mode: mode, FreqBase: 10000, FreqScale: 1, AttnFactor: 1}, false, 0},
			rcase{m + "/pos", gpu.Rope{Dims: 80, Mode: mode, FreqBase: 500000, FreqScale: 1, AttnFactor: 1}, false, 37},
			rcase{m + "/partial-linear", gpu.Rope{Dims: 32, Mode: mode, FreqBase: 10000, FreqScale: 0.5, AttnFactor: 1}, false, 11},
			rcase{m + "/freq-factors", gpu.Rope{Dims: 64, Mode: mode, FreqBase: 500000, FreqScale: 1, AttnFactor: 1}, true, 123},
			rcase{m + "/yarn", gpu.Rope{Dims: 64, Mode: mode, FreqBase: 10000, FreqScale: 0.25, ExtFactor: 1,
				AttnFactor: 1, BetaFast: 32, BetaSlow: 1, OrigCtx: 4096}, false, 1500},
			rcase{m + "/yarn-attn", gpu.Rope{Dims: 48, Mode: mode, FreqBase: 10000, FreqScale: 1.0 / 40, ExtFactor: 0.7,
				AttnFactor: 0.9, BetaFast: 32, BetaSlow: 1, OrigCtx: 4096}, false, 3000},
		)
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const hd, H, T = 80, 3, 3
			e := newEnv(t, be, uint64(ci), T)
			// A strided input: heads of hd values in rows of 96.
			base, xb := e.input("base", e.vals(96*H*T, 1), 96, H, T)
			In := e.g.View("in", base, 0, gpu.Shape4(hd, H, T), &[4]int{4, 4 * 96, 4 * 96 * H, 4 * 96 * H * T})
			var ff []float64
			op := c.op
			if c.ff {
				f := e.vals(c.op.Dims/2, 1)
				for i := range f {
					f[i] = 1 + 7*math.Abs(f[i]) // llama3's factors lie in [1, 8]
				}
				op.FreqFactors, ff = e.input("ff", f, len(f))
			}
			Out := e.output("out", gguf.F32, hd, H, T)
			op.In, op.Out = In, Out
			e.g.Do(&op)
			e.run(c.pos)
			var want, tol []float64
			for r := 0; r < H*T; r++ {
				y, tl := ropeRef(&op, xb[r*96:r*96+hd], c.pos+r/H, ff)
				want = append(want, y...)
				tol = append(tol, tl...)
			}
			near(t, "out", readF(t, Out), want, tol)
		})
	}
}
