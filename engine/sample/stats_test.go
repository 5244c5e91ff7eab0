package sample

import (
	"fmt"
	"math"
	"sort"
	"testing"
)

// Distribution checks: Pearson's chi-square goodness of fit.
//
// With N independent draws from a sampler whose true distribution is p,
// X² = Σ (O_i - N p_i)² / (N p_i) over the bins follows χ²(bins-1)
// asymptotically, and the approximation is good when every expected count
// N p_i is at least 5, which is why rarer tokens are pooled into one bin.
// A correct sampler exceeds the upper 1e-6 quantile of χ²(df) with
// probability 1e-6 per check; the seeds are fixed, so a test that passes
// once passes always, and a wrong sampler (probabilities off by even a
// fraction of a percent in a bin holding a few percent of the mass, at the
// draw counts used) lands far above the bound. Power is not assumed: the
// tests also score each sample against a deliberately wrong chain order and
// require that to fail.
//
// The quantile uses the Wilson–Hilferty cube-root normal approximation,
// χ²_q(df) ≈ df·(1 - 2/(9df) + z·sqrt(2/(9df)))³ with z = 4.7534 (the
// standard normal's upper 1e-6 point). In this tail it errs high (by 7% at
// df = 3, 2% at df = 10, under 1% from df = 30 on), which only makes a false
// failure rarer.
func chiSquareBound(df int) float64 {
	const z = 4.7534
	d := float64(df)
	a := 2 / (9 * d)
	return d * math.Pow(1-a+z*math.Sqrt(a), 3)
}

// chiSquare scores observed counts against expected probabilities. It
// returns the statistic and its degrees of freedom, or an error for a draw
// of a token the expectation gives no probability at all (a hard failure,
// however rare).
func chiSquare(counts map[int32]int, probs []float64, n int) (x2 float64, df int, err error) {
	for id, c := range counts {
		if id < 0 || int(id) >= len(probs) || probs[id] == 0 {
			return 0, 0, fmt.Errorf("token %d drawn %d times but has probability 0", id, c)
		}
	}
	type bin struct{ obs, exp float64 }
	var bins []bin
	var rest bin
	ids := make([]int, 0, len(probs))
	for id, p := range probs {
		if p > 0 {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(a, b int) bool { return probs[ids[a]] > probs[ids[b]] })
	for _, id := range ids {
		b := bin{float64(counts[int32(id)]), probs[id] * float64(n)}
		if b.exp >= 5 {
			bins = append(bins, b)
		} else {
			rest.obs += b.obs
			rest.exp += b.exp
		}
	}
	if rest.exp > 0 {
		if rest.exp >= 5 || len(bins) == 0 {
			bins = append(bins, rest)
		} else {
			last := &bins[len(bins)-1]
			last.obs += rest.obs
			last.exp += rest.exp
		}
	}
	for _, b := range bins {
		x2 += (b.obs - b.exp) * (b.obs - b.exp) / b.exp
	}
	return x2, len(bins) - 1, nil
}

// drawCounts runs draw n times and tallies the tokens.
func drawCounts(n int, draw func() int32) map[int32]int {
	c := map[int32]int{}
	for range n {
		c[draw()]++
	}
	return c
}

// expectFits fails the test when counts do not fit probs.
func expectFits(t *testing.T, name string, counts map[int32]int, probs []float64, n int) {
	t.Helper()
	x2, df, err := chiSquare(counts, probs, n)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if df == 0 {
		return // one token holds all the mass and only it was drawn
	}
	if bound := chiSquareBound(df); x2 > bound {
		t.Errorf("%s: chi-square %.1f > %.1f (df %d): draws do not follow the expected distribution", name, x2, bound, df)
	}
}

// expectMisfits fails the test when counts fit a wrong expectation: proof
// that the check above has the power to notice that mistake.
func expectMisfits(t *testing.T, name string, counts map[int32]int, wrong []float64, n int) {
	t.Helper()
	x2, df, err := chiSquare(counts, wrong, n)
	if err != nil {
		return // drew a token the wrong chain forbids: clearly told apart
	}
	if df > 0 && x2 <= chiSquareBound(df) {
		t.Errorf("%s: the wrong chain also fits (chi-square %.1f, df %d): the check cannot tell them apart", name, x2, df)
	}
}

func TestChiSquareBound(t *testing.T) {
	// Upper 1e-6 quantiles of chi-square, from the regularized incomplete
	// gamma function. The approximation may only err high, and not by much.
	for _, c := range []struct {
		df   int
		want float64
	}{{1, 23.93}, {3, 30.66}, {10, 46.86}, {30, 82.04}, {100, 182.13}} {
		got := chiSquareBound(c.df)
		if got < c.want*0.999 || got > c.want*1.16 {
			t.Errorf("chiSquareBound(%d) = %.2f, want a little above %.2f", c.df, got, c.want)
		}
	}
}
