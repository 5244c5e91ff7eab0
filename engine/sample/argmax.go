package sample

import "math"

// NoToken is what Sample, SampleCandidates and Argmax return when no token
// can be chosen: no logits at all, or every logit is NaN or -Inf. Callers
// should treat it as a failed step (the model produced unusable logits).
const NoToken int32 = -1

// Argmax returns the index of the largest logit, the lowest index on ties
// (llama.cpp's greedy sampler keeps the first maximum too). NaN logits are
// skipped; NoToken is returned when nothing is larger than -Inf.
func Argmax(logits []float32) int32 {
	best := NoToken
	bestV := float32(math.Inf(-1))
	for i, v := range logits {
		// v > bestV is false for NaN, and strict > keeps the first maximum.
		if v > bestV {
			best, bestV = int32(i), v
		}
	}
	return best
}
