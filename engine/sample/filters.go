package sample

import "math"

// weight is exp((v-hi)/T) written as exp((v-hi)*invT): subtracting the
// maximum first keeps the exponent <= 0, so a tiny temperature drives the
// others to 0 instead of overflowing. A +Inf maximum is the limit of that:
// the +Inf tokens share everything and the rest get nothing.
func weight(v, hi float32, invT float64) float64 {
	if math.IsInf(float64(hi), 1) {
		if math.IsInf(float64(v), 1) {
			return 1
		}
		return 0
	}
	return expNonPos((float64(v) - float64(hi)) * invT)
}

func sumCandWeights(c []cand, hi float32) float64 {
	var z float64
	for _, x := range c {
		z += weight(x.logit, hi, 1)
	}
	return z
}

// topPCut returns how many of the sorted candidates c top-p keeps: the
// shortest prefix whose probability reaches p, where a token's probability is
// its T = 1 weight over z (the denominator of the whole set top-p sees, which
// may be larger than c). reached is false when c ran out first; then all of
// c is kept, as llama.cpp keeps everything when the sum never reaches p.
func topPCut(c []cand, hi float32, z float64, p float32) (n int, reached bool) {
	target := float64(p)
	var cum float64
	for i, x := range c {
		cum += weight(x.logit, hi, 1) / z
		if cum >= target {
			return i + 1, true
		}
	}
	return len(c), false
}

// Top-p over a whole vocabulary buckets the tokens by how far their logit
// lies below the maximum: 128 buckets of a quarter nat each, the last one
// taking everything further down (weights below e^-32 of the maximum).
const (
	nucleusBuckets = 128
	bucketsPerNat  = 4
)

// nucleusFloor returns a logit bound that every token top-p keeps (from the
// whole of vals) lies strictly above, and the softmax denominator z top-p
// normalizes by. One pass sums the T = 1 weights per bucket; the nucleus ends
// in the first bucket where the running mass reaches p, and the bound leaves
// one more bucket of margin so rounding in the sums cannot cut it short. The
// caller then sorts only the tokens above the bound: for a trained model's
// logits a few hundred at most.
func nucleusFloor(vals []float32, hi float32, p float32) (floor float32, z float64) {
	if math.IsInf(float64(hi), 1) {
		// The +Inf tokens hold all the mass, equally.
		for _, v := range vals {
			if math.IsInf(float64(v), 1) {
				z++
			}
		}
		return hi, z
	}
	var mass [nucleusBuckets]float64
	top := float64(hi)
	for _, v := range vals {
		if !possible(v) {
			continue
		}
		d := top - float64(v)
		w := expNonPos(-d)
		z += w
		mass[min(int(d*bucketsPerNat), nucleusBuckets-1)] += w
	}
	target := float64(p) * z
	var cum float64
	for b := range nucleusBuckets - 2 {
		cum += mass[b]
		if cum >= target {
			return float32(top - float64(b+2)/bucketsPerNat), z
		}
	}
	return float32(math.Inf(-1)), z
}

// minPThreshold is the lowest logit min-p keeps: p_i >= minP*p_max is
// logit_i >= hi + ln(minP), computed in float32 as llama.cpp does.
func minPThreshold(hi float32, minP float32) float32 {
	return hi + float32(lnUnit(float64(minP)))
}

// minPCut returns how many of the sorted candidates c min-p keeps.
func minPCut(c []cand, minP float32) int {
	if len(c) == 0 {
		return 0
	}
	thr := minPThreshold(c[0].logit, minP)
	n := 1 // the most likely token always survives
	for n < len(c) && c[n].logit >= thr {
		n++
	}
	return n
}
