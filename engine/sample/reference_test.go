package sample

import (
	"math"
	"math/rand/v2"
	"sort"
)

// This file is the test's own model of llama.cpp's default chain, written
// the plain way: float64 throughout, a full sort, each stage literally as
// documented. The sampler's shortcuts (partial selection, skipping the sort
// under min-p, the +Inf limit) are checked against it.

// refChain returns the probability of every token after
// penalties -> top-k -> top-p -> min-p -> temperature, as a slice indexed by
// token id. temperatureFirst moves temperature before top-k, which is the
// wrong order; the tests use it to show that the distribution checks can
// tell the orders apart.
func refChain(logits []float32, history []int32, o Options, temperatureFirst bool) []float64 {
	n := len(logits)
	v := make([]float64, n)
	for i, l := range logits {
		v[i] = float64(l)
		if math.IsNaN(v[i]) {
			v[i] = math.Inf(-1)
		}
	}
	for id, c := range refCounts(history, o.RepeatLastN, n) {
		if v[id] <= 0 {
			v[id] *= float64(o.RepeatPenalty)
		} else {
			v[id] /= float64(o.RepeatPenalty)
		}
		v[id] -= float64(c)*float64(o.FrequencyPenalty) + float64(o.PresencePenalty)
	}
	probs := make([]float64, n)
	if temperatureFirst && o.Temperature > 0 {
		for i := range v {
			v[i] /= float64(o.Temperature)
		}
	}
	// Candidates sorted by logit, descending, lowest id first on ties.
	ids := make([]int, 0, n)
	for i := range v {
		if !math.IsInf(v[i], -1) {
			ids = append(ids, i)
		}
	}
	sort.SliceStable(ids, func(a, b int) bool { return v[ids[a]] > v[ids[b]] })
	if len(ids) == 0 {
		return probs
	}
	if o.TopK > 0 && o.TopK < len(ids) {
		ids = ids[:o.TopK]
	}
	if o.TopP < 1 {
		p := refSoftmax(v, ids, 1)
		cum, keep := 0.0, len(ids)
		for i := range ids {
			cum += p[i]
			if cum >= float64(o.TopP) {
				keep = i + 1
				break
			}
		}
		ids = ids[:keep]
	}
	if o.MinP > 0 {
		p := refSoftmax(v, ids, 1)
		keep := 0
		for i := range ids {
			if p[i] >= float64(o.MinP)*p[0] {
				keep = i + 1
			}
		}
		ids = ids[:keep]
	}
	if o.Temperature <= 0 {
		probs[ids[0]] = 1
		return probs
	}
	t := float64(o.Temperature)
	if temperatureFirst {
		t = 1
	}
	for i, p := range refSoftmax(v, ids, t) {
		probs[ids[i]] = p
	}
	return probs
}

// refSoftmax returns softmax(v[id]/t) over ids; +Inf logits share all mass.
func refSoftmax(v []float64, ids []int, t float64) []float64 {
	out := make([]float64, len(ids))
	hi := math.Inf(-1)
	for _, id := range ids {
		hi = math.Max(hi, v[id])
	}
	var sum float64
	for i, id := range ids {
		switch {
		case math.IsInf(hi, 1) && math.IsInf(v[id], 1):
			out[i] = 1
		case math.IsInf(hi, 1):
			out[i] = 0
		default:
			out[i] = math.Exp((v[id] - hi) / t)
		}
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// refCounts counts the penalty window with a map, independently of the
// sampler's dense counter.
func refCounts(history []int32, lastN, vocab int) map[int]int {
	m := map[int]int{}
	if lastN == 0 {
		return m
	}
	start := 0
	if lastN > 0 && len(history) > lastN {
		start = len(history) - lastN
	}
	for _, id := range history[start:] {
		if id >= 0 && int(id) < vocab {
			m[int(id)]++
		}
	}
	return m
}

// randomLogits returns n logits drawn from N(0, scale²) + offset, never all
// equal, never zero by construction of the test.
func randomLogits(r *rand.Rand, n int, scale, offset float64) []float32 {
	l := make([]float32, n)
	for i := range l {
		l[i] = float32(r.NormFloat64()*scale + offset)
	}
	return l
}

// randomHistory returns n token ids in [0, vocab) with plenty of repeats.
func randomHistory(r *rand.Rand, n, vocab int) []int32 {
	h := make([]int32, n)
	hot := max(vocab/8, 2)
	for i := range h {
		if r.IntN(2) == 0 {
			h[i] = int32(r.IntN(hot)) // repeats among a few tokens
		} else {
			h[i] = int32(r.IntN(vocab))
		}
	}
	return h
}
