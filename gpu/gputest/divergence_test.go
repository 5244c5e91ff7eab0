package gputest

import (
	"math"
	"testing"
)

// TestDivergence against values worked by hand: ref's distribution
// (1/4, 3/4) against got's (1/2, 1/2) loses 1/4 ln(1/2) + 3/4 ln(3/2)
// nats; rows shifted by a constant (log-probabilities against logits) are
// the same distribution; a token ref rules out (-Inf) costs nothing, one
// got rules out that ref does not costs everything.
func TestDivergence(t *testing.T) {
	ln3 := math.Log(3)
	want := 0.25*math.Log(0.5) + 0.75*math.Log(1.5)
	for _, c := range []struct {
		name     string
		got, ref [][]float64
		tie      float64
		kl, top1 float64
	}{
		{"by hand", [][]float64{{0, 0}}, [][]float64{{0, ln3}}, 0, want, 1},
		{"shifted rows", [][]float64{{-7, -7}}, [][]float64{{2, 2 + ln3}}, 0, want, 1},
		{"other first choice", [][]float64{{1, 0}}, [][]float64{{0, 1}}, 0, (1 - 2/(1+math.E)) * 1, 0},
		{"within the tie", [][]float64{{1e-7, 0}}, [][]float64{{0, 1}}, 2e-7, -1, 1},
		{"ruled out by ref", [][]float64{{0, 0, -5}}, [][]float64{{0, ln3, math.Inf(-1)}}, 0, -1, 1},
		{"ruled out by got", [][]float64{{0, math.Inf(-1)}}, [][]float64{{0, 0}}, 0, math.Inf(1), 1},
		{"mean of two steps", [][]float64{{0, 0}, {3, 3}}, [][]float64{{0, ln3}, {3, 3}}, 0, want / 2, 1},
	} {
		kl, top1 := Divergence(c.got, c.ref, c.tie)
		if c.kl >= 0 && math.Abs(kl-c.kl) > 1e-12 && !(math.IsInf(c.kl, 1) && math.IsInf(kl, 1)) {
			t.Errorf("%s: mean KL %.15g, want %.15g", c.name, kl, c.kl)
		}
		if c.kl < 0 && !(kl > 0 && kl < math.Inf(1)) {
			t.Errorf("%s: mean KL %g, want a positive finite one", c.name, kl)
		}
		if top1 != c.top1 {
			t.Errorf("%s: top-1 %g, want %g", c.name, top1, c.top1)
		}
	}
	if kl, _ := Divergence([][]float64{{0}}, nil, 0); !math.IsNaN(kl) {
		t.Errorf("rows of different lengths: %g, want NaN", kl)
	}
	if err := (Bound{MeanKL: 1e-3, Top1: 0.9}).Check(2e-3, 1); err == nil {
		t.Error("Check passes a mean KL above the bound")
	}
	if err := (Bound{MeanKL: 1e-3, Top1: 0.9}).Check(1e-4, 0.85); err == nil {
		t.Error("Check passes a top-1 share below the bound")
	}
	if err := (Bound{MeanKL: 1e-3, Top1: 0.9}).Check(1e-3, 0.9); err != nil {
		t.Errorf("Check fails a measurement on the bound: %v", err)
	}
}
