package sample

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A mask and a bias change the logits the chain sees and nothing else:
// draws equal plain Sample's on logits edited by hand, seed for seed, so
// the masked distribution is the chain's renormalized over what is left.
func TestMaskAndBiasAreLogitEdits(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	const vocab = 300
	for round := range 50 {
		logits := make([]float32, vocab)
		for i := range logits {
			logits[i] = float32(rng.NormFloat64() * 3)
		}
		allow := make([]uint64, (vocab+63)/64)
		for i := range vocab {
			if rng.IntN(3) == 0 {
				allow[i>>6] |= 1 << (i & 63)
			}
		}
		bias := map[int32]float32{int32(rng.IntN(vocab)): 5, int32(rng.IntN(vocab)): -100, int32(rng.IntN(vocab)): -2.5, -4: 9, vocab + 3: 9}
		edited := append([]float32(nil), logits...)
		for id, b := range bias {
			if id >= 0 && id < vocab {
				if b <= -100 {
					edited[id] = float32(math.Inf(-1))
				} else {
					edited[id] += b
				}
			}
		}
		for i := range edited {
			if allow[i>>6]&(1<<(i&63)) == 0 {
				edited[i] = float32(math.Inf(-1))
			}
		}
		o := DefaultOptions()
		o.Seed = uint64(round)
		o.Temperature = 1
		o.TopK = []int{0, 40, 1}[round%3]
		o.RepeatPenalty = 1.3
		history := []int32{1, 2, 3, int32(rng.IntN(vocab))}
		a, b := New(o), New(o)
		a.SetBias(bias)
		for range 20 {
			got := a.SampleMasked(logits, history, allow)
			want := b.Sample(edited, history)
			if got != want {
				t.Fatalf("round %d: masked %d, by hand %d", round, got, want)
			}
			if allow[got>>6]&(1<<(got&63)) == 0 {
				t.Fatalf("round %d: drew %d, which the mask removes", round, got)
			}
		}
		if a.CandidatesNeeded(4) != 0 {
			t.Fatal("a biased sampler claims a short list suffices")
		}
	}
	// Nothing allowed: no token.
	if got := New(DefaultOptions()).SampleMasked([]float32{1, 2}, nil, []uint64{0}); got != NoToken {
		t.Fatalf("an empty mask gave %d", got)
	}
}

func TestLogprobs(t *testing.T) {
	logits := []float32{1, 3, float32(math.NaN()), 2, float32(math.Inf(-1)), 3}
	lp, top := Logprobs(logits, 3, 3)
	var z float64
	for _, v := range []float64{1, 3, 2, 3} {
		z += math.Exp(v)
	}
	if want := 2 - math.Log(z); math.Abs(float64(lp)-want) > 1e-6 {
		t.Fatalf("logprob %v, want %v", lp, want)
	}
	if len(top) != 3 || top[0].Token != 1 || top[1].Token != 5 || top[2].Token != 3 || top[2].Logprob != lp || top[0].Logprob != top[1].Logprob {
		t.Fatalf("top %+v", top)
	}
	if lp, _ := Logprobs(logits, 4, 0); !math.IsInf(float64(lp), -1) {
		t.Fatalf("a -Inf logit has logprob %v", lp)
	}
}
