package sample

import (
	"math"
	"math/rand/v2"
	"testing"
)

// expNonPos against math.Exp over the whole domain (math.Exp is within
// 1 ulp, about 2.2e-16, of the truth).
func TestExpNonPos(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 3))
	worst := 0.0
	for i := range 400000 {
		var x float64
		switch i % 3 {
		case 0:
			x = -700 * r.Float64()
		case 1:
			x = -2 * r.Float64()
		default:
			x = -1e-6 * r.Float64()
		}
		got, want := expNonPos(x), math.Exp(x)
		if e := math.Abs(got-want) / want; e > worst {
			worst = e
		}
	}
	t.Logf("worst relative error %.3g", worst)
	if worst > 1e-15 {
		t.Errorf("expNonPos is %.3g away from math.Exp at worst (relative), want < 1e-15", worst)
	}
	for x, want := range map[float64]float64{0: 1, -700.5: 0, math.Inf(-1): 0} {
		if got := expNonPos(x); got != want {
			t.Errorf("expNonPos(%v) = %v, want %v", x, got, want)
		}
	}
	if got := expNonPos(math.NaN()); !math.IsNaN(got) {
		t.Errorf("expNonPos(NaN) = %v", got)
	}
}

func BenchmarkExpNonPos(b *testing.B) {
	xs := make([]float64, 1024)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range xs {
		xs[i] = -30 * r.Float64()
	}
	var s float64
	for i := 0; b.Loop(); i++ {
		s += expNonPos(xs[i&1023])
	}
	_ = s
}

func BenchmarkMathExp(b *testing.B) {
	xs := make([]float64, 1024)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range xs {
		xs[i] = -30 * r.Float64()
	}
	var s float64
	for i := 0; b.Loop(); i++ {
		s += math.Exp(xs[i&1023])
	}
	_ = s
}

func TestLnUnit(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 3))
	worst := 0.0
	for i := range 200000 {
		x := r.Float64()
		if i%2 == 0 {
			x = math.Exp(-40 * r.Float64())
		}
		if x == 0 {
			continue
		}
		got, want := lnUnit(x), math.Log(x)
		var e float64
		if want == 0 {
			e = math.Abs(got)
		} else {
			e = math.Abs(got-want) / math.Abs(want)
		}
		worst = max(worst, e)
	}
	t.Logf("worst relative error %.3g", worst)
	if worst > 1e-15 {
		t.Errorf("lnUnit is %.3g away from math.Log at worst (relative), want < 1e-15", worst)
	}
	for _, x := range []float64{0, -1, 1.5, math.NaN()} {
		if got := lnUnit(x); !math.IsNaN(got) {
			t.Errorf("lnUnit(%v) = %v, want NaN", x, got)
		}
	}
	if got := lnUnit(1); got != 0 {
		t.Errorf("lnUnit(1) = %v", got)
	}
}
