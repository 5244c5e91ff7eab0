package sample

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The penalized logits match the rule computed independently in float64:
// repeat divides positive logits and multiplies the others, then
// count*frequency + presence is subtracted; tokens outside the window, ids
// outside the vocabulary, and the caller's slice stay untouched.
func TestPenaltiesAdjustLogits(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for trial := range 200 {
		vocab := 10 + r.IntN(500)
		logits := randomLogits(r, vocab, 2, 0) // both signs
		hist := randomHistory(r, r.IntN(300), vocab)
		hist = append(hist, -5, int32(vocab), int32(vocab+1000)) // out of range: ignored
		o := DefaultOptions()
		o.RepeatPenalty = 0.5 + 2*r.Float32()
		o.PresencePenalty = 2*r.Float32() - 1
		o.FrequencyPenalty = 2*r.Float32() - 1
		o.RepeatLastN = []int{-1, 1, 7, 64, 1000}[trial%5]
		before := slices.Clone(logits)
		s := New(o)
		got := s.penalized(logits, hist)
		if !slices.Equal(logits, before) {
			t.Fatal("penalized modified the caller's logits")
		}
		counts := refCounts(hist, o.RepeatLastN, vocab)
		for id := range vocab {
			c, seen := counts[id]
			if !seen {
				if math.Float32bits(got[id]) != math.Float32bits(logits[id]) {
					t.Fatalf("trial %d: token %d is not in the window but changed %v -> %v", trial, id, logits[id], got[id])
				}
				continue
			}
			want := float64(logits[id])
			if want > 0 {
				want /= float64(o.RepeatPenalty)
			} else {
				want *= float64(o.RepeatPenalty)
			}
			want -= float64(c)*float64(o.FrequencyPenalty) + float64(o.PresencePenalty)
			if math.Abs(float64(got[id])-want) > 1e-5*(1+math.Abs(want)) {
				t.Fatalf("trial %d: token %d seen %d times: got %v, want %v", trial, id, c, got[id], want)
			}
		}
	}
}

func TestPenaltiesDisabled(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 3))
	logits := randomLogits(r, 100, 2, 0)
	hist := randomHistory(r, 50, 100)
	for _, o := range []Options{
		withPenalties(DefaultOptions(), 1.5, 0.5, 0.5, 0), // window 0
		withPenalties(DefaultOptions(), 1, 0, 0, 64),      // all neutral
	} {
		s := New(o)
		if s.HasPenalties() {
			t.Errorf("%+v: HasPenalties = true", o)
		}
		if got := s.penalized(logits, hist); &got[0] != &logits[0] {
			t.Errorf("%+v: penalized copied the logits although nothing applies", o)
		}
	}
}

func argmaxRef(l []float32) int32 {
	best := NoToken
	for i, v := range l {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), -1) {
			continue
		}
		if best < 0 || v > l[best] {
			best = int32(i)
		}
	}
	return best
}

func TestArgmax(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 3))
	for range 500 {
		l := randomLogits(r, 1+r.IntN(2000), 3, -1)
		// Plant ties with the maximum, and some NaNs.
		m := l[argmaxRef(l)]
		for range r.IntN(4) {
			l[r.IntN(len(l))] = m
		}
		for range r.IntN(4) {
			l[r.IntN(len(l))] = float32(math.NaN())
		}
		if got, want := Argmax(l), argmaxRef(l); got != want {
			t.Fatalf("Argmax = %d, want %d", got, want)
		}
	}
	inf := float32(math.Inf(1))
	for _, c := range []struct {
		l    []float32
		want int32
	}{
		{nil, NoToken},
		{[]float32{float32(math.NaN())}, NoToken},
		{[]float32{-inf, -inf}, NoToken},
		{[]float32{float32(math.NaN()), -3, 2, 2}, 2},
		{[]float32{1, inf, 3, inf}, 1},
		{[]float32{-7, -inf, -7.5}, 0},
	} {
		if got := Argmax(c.l); got != c.want {
			t.Errorf("Argmax(%v) = %d, want %d", c.l, got, c.want)
		}
	}
}

// Greedy (temperature <= 0, or top-k 1) is the argmax of the penalized
// logits whatever the other filters say, and draws no random numbers.
func TestGreedy(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 3))
	for trial := range 300 {
		vocab := 2 + r.IntN(3000)
		l := randomLogits(r, vocab, 2, 0)
		if trial%3 == 0 { // ties at the top
			l[r.IntN(vocab)] = l[argmaxRef(l)]
		}
		hist := randomHistory(r, 40, vocab)
		o := DefaultOptions()
		switch trial % 4 {
		case 0:
			o.Temperature = 0
		case 1:
			o.Temperature = -1
		case 2:
			o.TopK = 1
		case 3:
			o.Temperature = 0
			o = withPenalties(o, 1.7, 0.8, 0.4, 32)
		}
		s := New(o)
		if !s.IsGreedy() {
			t.Fatalf("%+v: IsGreedy = false", o)
		}
		rngBefore := s.rng
		want := int32(-1)
		{ // argmax of the reference's penalized logits, lowest id on ties
			probs := refChain(l, hist, withTemp(o, 0), false)
			for id, p := range probs {
				if p == 1 {
					want = int32(id)
				}
			}
		}
		if got := s.Sample(l, hist); got != want {
			t.Fatalf("trial %d: greedy Sample = %d, want %d", trial, got, want)
		}
		if s.rng != rngBefore {
			t.Fatalf("trial %d: greedy Sample consumed random numbers", trial)
		}
	}
	if New(DefaultOptions()).IsGreedy() {
		t.Error("defaults are greedy")
	}
}

func withTemp(o Options, temp float32) Options { o.Temperature = temp; return o }

// The same seed gives the same tokens; other seeds give other tokens; Reseed
// restarts the stream.
func TestReproducible(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 3))
	steps := make([][]float32, 300)
	for i := range steps {
		steps[i] = randomLogits(r, 2000, 1.5, 0)
	}
	run := func(s *Sampler) []int32 {
		var out []int32
		for _, l := range steps {
			out = append(out, s.Sample(l, out))
		}
		return out
	}
	o := withPenalties(DefaultOptions(), 1.1, 0.1, 0.1, 64)
	o.Seed = 42
	a, b := run(New(o)), run(New(o))
	if !slices.Equal(a, b) {
		t.Fatal("same seed, different tokens")
	}
	s := New(o)
	run(s)
	s.Reseed(42)
	if c := run(s); !slices.Equal(a, c) {
		t.Fatal("Reseed(42) does not restart the stream")
	}
	for _, seed := range []uint64{0, 1, 43, math.MaxUint64} {
		o.Seed = seed
		d := run(New(o))
		same := 0
		for i := range a {
			if a[i] == d[i] {
				same++
			}
		}
		// With ~10 plausible tokens a step, agreeing on most of 300 steps by
		// chance is impossible; a seed that is ignored agrees on all.
		if same > len(a)/2 {
			t.Errorf("seed %d agrees with seed 42 on %d of %d steps", seed, same, len(a))
		}
	}
}

// SampleCandidates on the top CandidatesNeeded raw logits, in any order,
// picks exactly what Sample picks on the whole vocabulary with the same seed.
func TestSampleCandidatesMatchesSample(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	configs := []Options{
		DefaultOptions(),
		withPenalties(DefaultOptions(), 1.3, 0.4, 0.2, 32),
		withPenalties(opts(1.2, 10, 1, 0), 1.5, 0, 0.5, -1),
		withPenalties(opts(0, 0, 1, 0), 1.4, 0.3, 0, 16), // greedy: 1 + window
		opts(0.7, 25, 0.8, 0),
	}
	for ci, o := range configs {
		o.Seed = uint64(ci)
		full, part := New(o), New(o)
		var hist []int32
		for step := range 250 {
			vocab := 1500
			l := randomLogits(r, vocab, 2, 0)
			// Make the history's tokens strong so the penalties matter.
			for _, id := range hist[max(0, len(hist)-8):] {
				l[id] += 4
			}
			n := part.CandidatesNeeded(len(hist))
			if n == 0 {
				t.Fatalf("config %d: CandidatesNeeded = 0", ci)
			}
			order := make([]int32, vocab)
			for i := range order {
				order[i] = int32(i)
			}
			sort.Slice(order, func(a, b int) bool { return l[order[a]] > l[order[b]] })
			ids := slices.Clone(order[:min(n, vocab)])
			r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
			cl := make([]float32, len(ids))
			for i, id := range ids {
				cl[i] = l[id]
			}
			want := full.Sample(l, hist)
			got := part.SampleCandidates(ids, cl, hist)
			if got != want {
				t.Fatalf("config %d step %d: SampleCandidates = %d, Sample = %d (%d candidates)", ci, step, got, want, n)
			}
			hist = append(hist, want)
		}
	}
}

func TestSampleCandidatesEdges(t *testing.T) {
	s := New(DefaultOptions())
	nan := float32(math.NaN())
	for _, c := range []struct {
		ids    []int32
		logits []float32
	}{
		{nil, nil},
		{[]int32{1, 2}, []float32{1}},
		{[]int32{-1, -2}, []float32{1, 2}},
		{[]int32{3, 4}, []float32{nan, float32(math.Inf(-1))}},
	} {
		if got := s.SampleCandidates(c.ids, c.logits, nil); got != NoToken {
			t.Errorf("SampleCandidates(%v, %v) = %d, want NoToken", c.ids, c.logits, got)
		}
	}
	if got := s.SampleCandidates([]int32{-1, 9, 4}, []float32{50, nan, 3}, nil); got != 4 {
		t.Errorf("only token 4 is usable, got %d", got)
	}
	// Penalties boost with repeat < 1: no finite list is exact.
	if n := New(withPenalties(DefaultOptions(), 0.8, 0, 0, 64)).CandidatesNeeded(10); n != 0 {
		t.Errorf("CandidatesNeeded with a boosting penalty = %d, want 0", n)
	}
	if n := New(opts(0.8, 0, 0.9, 0)).CandidatesNeeded(10); n != 0 {
		t.Errorf("CandidatesNeeded without top-k = %d, want 0", n)
	}
	if n := New(opts(0, 0, 1, 0)).CandidatesNeeded(10); n != 1 {
		t.Errorf("CandidatesNeeded for plain greedy = %d, want 1", n)
	}
}

func TestValidate(t *testing.T) {
	if err := DefaultOptions().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, c := range []struct {
		edit func(*Options)
		key  string
	}{
		{func(o *Options) { o.Temperature = nan }, "temperature"},
		{func(o *Options) { o.Temperature = -inf }, "temperature"},
		{func(o *Options) { o.TopK = -1 }, "top_k"},
		{func(o *Options) { o.TopP = 0 }, "top_p"},
		{func(o *Options) { o.TopP = 1.01 }, "top_p"},
		{func(o *Options) { o.TopP = nan }, "top_p"},
		{func(o *Options) { o.MinP = -0.1 }, "min_p"},
		{func(o *Options) { o.MinP = 2 }, "min_p"},
		{func(o *Options) { o.RepeatPenalty = 0 }, "repeat_penalty"},
		{func(o *Options) { o.RepeatPenalty = inf }, "repeat_penalty"},
		{func(o *Options) { o.RepeatPenalty = 1e-45 }, "repeat_penalty"}, // 1/x overflows
		{func(o *Options) { o.PresencePenalty = nan }, "presence_penalty"},
		{func(o *Options) { o.FrequencyPenalty = -inf }, "frequency_penalty"},
		{func(o *Options) { o.RepeatLastN = -2 }, "repeat_last_n"},
	} {
		o := DefaultOptions()
		c.edit(&o)
		err := o.Validate()
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%+v: error %v does not name %s", o, err, c.key)
		}
		// New still works, with the default in place of the bad field.
		if got := New(o).Options(); got != DefaultOptions() {
			t.Errorf("New(%+v).Options() = %+v, want the defaults", o, got)
		}
	}
	// Several problems are all reported.
	o := Options{TopK: -3, TopP: 2, MinP: -1, RepeatPenalty: -1}
	msg := o.Validate().Error()
	for _, key := range []string{"top_k", "top_p", "min_p", "repeat_penalty"} {
		if !strings.Contains(msg, key) {
			t.Errorf("error %q does not name %s", msg, key)
		}
	}
	// Edge values that are valid.
	for _, edit := range []func(*Options){
		func(o *Options) { o.Temperature = -1 },
		func(o *Options) { o.TopK = 0 },
		func(o *Options) { o.TopP = 1 },
		func(o *Options) { o.MinP = 0 },
		func(o *Options) { o.MinP = 1 },
		func(o *Options) { o.RepeatLastN = -1 },
		func(o *Options) { o.PresencePenalty = -2 },
	} {
		o := DefaultOptions()
		edit(&o)
		if err := o.Validate(); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

func TestStopTokens(t *testing.T) {
	s := NewStopTokens(7, 2, -1, 7, 128001)
	if got := s.IDs(); !slices.Equal(got, []int32{2, 7, 128001}) {
		t.Errorf("IDs = %v", got)
	}
	s.Add(5)
	for id, want := range map[int32]bool{2: true, 5: true, 7: true, 128001: true, -1: false, 0: false, 6: false} {
		if s.Contains(id) != want {
			t.Errorf("Contains(%d) = %v", id, !want)
		}
	}
	var none *StopTokens
	if none.Contains(0) || none.IDs() != nil {
		t.Error("a nil set is not empty")
	}
}

// Ties at the top-k boundary keep the lowest ids, in both the full and the
// candidate-list forms, the way Argmax breaks ties.
func TestTopKTiesKeepLowestIDs(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 3))
	for trial := range 50 {
		vocab := 50 + r.IntN(500)
		l := randomLogits(r, vocab, 1, -3) // all well below the tied value
		tied := r.Perm(vocab)[:10]
		for _, id := range tied {
			l[id] = 2
		}
		top := r.IntN(vocab)
		l[top] = 3
		o := opts(1, 4, 1, 0)
		o.Seed = uint64(trial)
		allowed := map[int32]bool{int32(top): true}
		lowest := slices.Clone(tied)
		slices.Sort(lowest)
		for _, id := range lowest {
			if len(allowed) == 4 {
				break
			}
			allowed[int32(id)] = true
		}
		ids := make([]int32, vocab)
		for i := range ids {
			ids[i] = int32(i)
		}
		r.Shuffle(vocab, func(i, j int) { ids[i], ids[j] = ids[j], ids[i]; l[i], l[j] = l[j], l[i] })
		full := make([]float32, vocab)
		for i, id := range ids {
			full[id] = l[i]
		}
		s, sc := New(o), New(o)
		for range 400 {
			if got := s.Sample(full, nil); !allowed[got] {
				t.Fatalf("trial %d: Sample drew %d, outside the top 4 by (logit, lowest id) %v", trial, got, allowed)
			}
			if got := sc.SampleCandidates(ids, l, nil); !allowed[got] {
				t.Fatalf("trial %d: SampleCandidates drew %d, outside %v", trial, got, allowed)
			}
		}
	}
}
