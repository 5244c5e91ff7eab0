package sample

import "math"

// Logprob is one token's log-probability under a step's distribution.
type Logprob struct {
	Token   int32
	Logprob float32
}

// Logprobs returns the natural log-probability of token id under the
// softmax of logits (temperature 1, before any sampling filter: the
// model's own distribution, as OpenAI reports it) and the top most likely
// tokens with theirs, most likely first (ties to the lower id). NaN
// logits count as -Inf.
func Logprobs(logits []float32, id int32, top int) (float32, []Logprob) {
	hi := maxLogit(logits)
	if !possible(hi) || id < 0 || int(id) >= len(logits) {
		return float32(math.Inf(-1)), nil
	}
	var z float64
	for _, v := range logits {
		if possible(v) {
			z += math.Exp(float64(v) - float64(hi))
		}
	}
	lz := float64(hi) + math.Log(z)
	lp := func(v float32) float32 {
		if !possible(v) {
			return float32(math.Inf(-1))
		}
		return float32(float64(v) - lz)
	}
	var out []Logprob
	if top > 0 {
		for _, c := range selectTopK(nil, logits, min(top, len(logits))) {
			out = append(out, Logprob{c.id, lp(c.logit)})
		}
	}
	return lp(logits[id]), out
}
