package sample

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// Qwen's vocabulary size: the largest the engine meets today.
const benchVocab = 151936

// benchLogits imitates a trained model's logits: a normal body and a few
// dozen tokens standing well above it, which hold most of the probability
// (here the top-p 0.95 nucleus is about 40 tokens).
func benchLogits() []float32 {
	r := rand.New(rand.NewPCG(1, 2))
	l := randomLogits(r, benchVocab, 1.5, 0)
	for range 50 {
		l[r.IntN(benchVocab)] = 14 + 6*float32(r.Float64())
	}
	return l
}

func benchSample(b *testing.B, o Options) {
	l := benchLogits()
	hist := randomHistory(rand.New(rand.NewPCG(3, 4)), 512, benchVocab)
	s := New(o)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Sample(l, hist)
	}
}

func BenchmarkSampleDefaults(b *testing.B) { benchSample(b, DefaultOptions()) }
func BenchmarkSampleGreedy(b *testing.B)   { benchSample(b, opts(0, 0, 1, 0)) }
func BenchmarkSamplePenalties(b *testing.B) {
	benchSample(b, withPenalties(DefaultOptions(), 1.1, 0.2, 0.1, 64))
}
func BenchmarkSampleNoTopK(b *testing.B)   { benchSample(b, opts(0.8, 0, 0.95, 0.05)) }
func BenchmarkSampleTopPOnly(b *testing.B) { benchSample(b, opts(0.8, 0, 0.95, 0)) }
func BenchmarkSampleTempOnly(b *testing.B) { benchSample(b, opts(0.8, 0, 1, 0)) }
func BenchmarkSampleTopK1000(b *testing.B) { benchSample(b, opts(0.8, 1000, 0.95, 0.05)) }

func BenchmarkSampleCandidates64(b *testing.B) {
	l := benchLogits()
	order := make([]int32, len(l))
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(a, c int) bool { return l[order[a]] > l[order[c]] })
	ids := slices.Clone(order[:64])
	cl := make([]float32, len(ids))
	for i, id := range ids {
		cl[i] = l[id]
	}
	s := New(DefaultOptions())
	b.ReportAllocs()
	for b.Loop() {
		s.SampleCandidates(ids, cl, nil)
	}
}

// The nucleus size the benchmark logits give, so that the comment above
// stays true.
func TestBenchLogitsNucleus(t *testing.T) {
	if testing.Short() {
		t.Skip("large vocabulary")
	}
	l := benchLogits()
	probs := refChain(l, nil, opts(1, 0, 0.95, 0), false)
	n := 0
	for _, p := range probs {
		if p > 0 {
			n++
		}
	}
	if n < 10 || n > 60 {
		t.Errorf("top-p 0.95 keeps %d tokens of the benchmark logits, not about 40", n)
	}
}
