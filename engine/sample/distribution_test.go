package sample

import (
	"math"
	"math/rand/v2"
	"testing"
)

// distCase samples one fixed set of logits many times and compares the
// tallies with refChain. wrong is a plausible mistake (another temperature,
// the wrong chain order, penalties forgotten ...) that the same tallies must
// be shown NOT to fit, so that each check is known to be able to fail.
type distCase struct {
	name       string
	vocab      int
	scale      float64
	o          Options
	histLen    int
	draws      int
	wrong      Options
	wrongFirst bool // wrong = temperature applied before the filters
	edit       func(logits []float32)
	minKept    int // the case is meant to keep at least this many tokens
}

func opts(temp float32, topK int, topP, minP float32) Options {
	o := DefaultOptions()
	o.Temperature, o.TopK, o.TopP, o.MinP = temp, topK, topP, minP
	return o
}

func withPenalties(o Options, repeat, presence, frequency float32, lastN int) Options {
	o.RepeatPenalty, o.PresencePenalty, o.FrequencyPenalty, o.RepeatLastN = repeat, presence, frequency, lastN
	return o
}

func TestDistributions(t *testing.T) {
	cases := []distCase{
		{name: "temperature 0.7", vocab: 64, scale: 1.5, o: opts(0.7, 0, 1, 0), draws: 50000,
			wrong: opts(0.75, 0, 1, 0)},
		{name: "temperature 1.6", vocab: 64, scale: 1.5, o: opts(1.6, 0, 1, 0), draws: 50000,
			wrong: opts(1.5, 0, 1, 0)},
		{name: "top-k 10", vocab: 200, scale: 1, o: opts(1, 10, 1, 0), draws: 50000,
			wrong: opts(1, 11, 1, 0)},
		{name: "top-k 10, heap on a larger vocabulary", vocab: 5000, scale: 1, o: opts(1.2, 10, 1, 0), draws: 20000,
			wrong: opts(1.2, 9, 1, 0)},
		{name: "top-p 0.8", vocab: 64, scale: 1.5, o: opts(0.6, 0, 0.8, 0), draws: 50000, wrongFirst: true},
		{name: "top-p 0.9, peaked logits", vocab: 3000, scale: 3.5, o: opts(0.8, 0, 0.9, 0), draws: 10000, wrongFirst: true},
		{name: "top-p 0.9, flat logits, wide nucleus", vocab: 1000, scale: 0.4, o: opts(1.3, 0, 0.9, 0), draws: 8000,
			wrong: opts(1.3, 400, 0.9, 0), minKept: 600},
		{name: "top-p 0.7 and min-p 0.35 over flat logits", vocab: 1500, scale: 0.5, o: opts(1, 0, 0.7, 0.35), draws: 10000,
			wrong: opts(1, 0, 0.7, 0), minKept: 100},
		{name: "min-p 0.1", vocab: 200, scale: 1.5, o: opts(1.3, 0, 1, 0.1), draws: 50000, wrongFirst: true},
		{name: "top-p binds before min-p", vocab: 200, scale: 1.5, o: opts(0.9, 0, 0.5, 0.01), draws: 50000, wrongFirst: true},
		{name: "min-p binds before top-p", vocab: 200, scale: 1.5, o: opts(1.4, 0, 0.99, 0.2), draws: 50000, wrongFirst: true},
		{name: "top-k, top-p, min-p, temperature (llama defaults)", vocab: 2000, scale: 2, o: opts(0.8, 40, 0.95, 0.05), draws: 50000, wrongFirst: true},
		{name: "top-k then top-p renormalized over k", vocab: 500, scale: 0.7, o: opts(1, 12, 0.6, 0), draws: 50000,
			wrong: opts(1, 0, 0.6, 0)},
		{name: "penalties alone", vocab: 100, scale: 1.5, o: withPenalties(opts(1, 0, 1, 0), 1.5, 0.4, 0.15, 64), histLen: 300, draws: 50000,
			wrong: opts(1, 0, 1, 0)},
		{name: "penalties window is the last N only", vocab: 100, scale: 1.5, o: withPenalties(opts(1, 0, 1, 0), 1.3, 0.5, 0.3, 16), histLen: 300, draws: 50000,
			wrong: withPenalties(opts(1, 0, 1, 0), 1.3, 0.5, 0.3, 64)},
		{name: "penalties with the whole chain", vocab: 100, scale: 2, o: withPenalties(opts(0.7, 30, 0.9, 0.03), 1.2, 0.3, 0.2, -1), histLen: 80, draws: 50000,
			wrongFirst: true},
		{name: "negative logits under repeat penalty", vocab: 60, scale: 1, o: withPenalties(opts(1, 0, 1, 0), 1.8, 0, 0, 64), histLen: 40, draws: 50000,
			wrong: withPenalties(opts(1, 0, 1, 0), 1/1.8, 0, 0, 64)},
		{name: "NaN and -Inf never drawn", vocab: 64, scale: 1.5, o: opts(0.9, 0, 1, 0), draws: 30000,
			wrong: opts(1, 0, 1, 0), edit: func(l []float32) {
				for i := 0; i < 20; i += 2 {
					l[i] = float32(math.NaN())
					l[i+1] = float32(math.Inf(-1))
				}
			}},
		{name: "+Inf logits share everything", vocab: 64, scale: 1.5, o: opts(0.9, 20, 0.9, 0.05), draws: 30000,
			edit: func(l []float32) {
				l[3], l[17], l[40] = float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))
				l[5] = float32(math.NaN())
			}},
		{name: "+Inf logits share everything, whole vocabulary", vocab: 300, scale: 1.5, o: opts(1.1, 0, 0.9, 0.05), draws: 30000,
			edit: func(l []float32) {
				l[30], l[31], l[299] = float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))
				l[0] = float32(math.NaN())
			}},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci)+100, 7))
			logits := randomLogits(r, c.vocab, c.scale, 0.5)
			if c.edit != nil {
				c.edit(logits)
			}
			var hist []int32
			if c.histLen > 0 {
				hist = randomHistory(r, c.histLen, c.vocab)
			}
			if err := c.o.Validate(); err != nil {
				t.Fatal(err)
			}
			before := append([]float32(nil), logits...)
			c.o.Seed = uint64(ci) * 7919
			s := New(c.o)
			counts := drawCounts(c.draws, func() int32 { return s.Sample(logits, hist) })
			for i := range logits {
				if math.Float32bits(logits[i]) != math.Float32bits(before[i]) {
					t.Fatalf("Sample modified logits[%d]: %v -> %v", i, before[i], logits[i])
				}
			}
			probs := refChain(logits, hist, c.o, false)
			kept := 0
			for _, p := range probs {
				if p > 0 {
					kept++
				}
			}
			if kept < c.minKept {
				t.Fatalf("only %d tokens are possible; the case needs %d to test what it is for", kept, c.minKept)
			}
			expectFits(t, c.name, counts, probs, c.draws)
			switch {
			case c.wrongFirst:
				expectMisfits(t, c.name+" (temperature first)", counts, refChain(logits, hist, c.o, true), c.draws)
			case c.wrong != Options{}:
				expectMisfits(t, c.name+" (wrong options)", counts, refChain(logits, hist, c.wrong, false), c.draws)
			}
		})
	}
}

// A single +Inf logit is a certainty whatever the filters and temperature.
func TestSingleInfinity(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, o := range []Options{opts(0.8, 40, 0.95, 0.05), opts(2, 0, 1, 0), opts(0.5, 0, 0.5, 0), opts(1, 0, 1, 0.3)} {
		s := New(o)
		for range 200 {
			l := randomLogits(r, 300, 3, 0)
			want := int32(r.IntN(len(l)))
			l[want] = float32(math.Inf(1))
			if got := s.Sample(l, nil); got != want {
				t.Fatalf("options %+v: got %d, want the +Inf token %d", o, got, want)
			}
		}
	}
}

// Sample never panics and never returns an impossible token, whatever mix
// of NaN and infinities the logits hold.
func TestNonFiniteLogits(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	specials := []float32{nan, inf, -inf}
	optsList := []Options{
		opts(0.8, 40, 0.95, 0.05), opts(1, 0, 1, 0), opts(1, 0, 0.7, 0), opts(1, 0, 1, 0.1),
		opts(1, 0, 0.7, 0.1), opts(0, 0, 1, 0), withPenalties(opts(0.9, 5, 0.9, 0.05), 1.4, 0.5, 0.5, 8),
	}
	for trial := range 300 {
		n := 1 + r.IntN(400)
		l := randomLogits(r, n, 2, 0)
		for i := range l {
			if r.IntN(3) == 0 {
				l[i] = specials[r.IntN(3)]
			}
		}
		hist := randomHistory(r, 20, n)
		o := optsList[trial%len(optsList)]
		got := New(o).Sample(l, hist)
		probs := refChain(l, hist, o, false)
		anyPossible := false
		for _, p := range probs {
			anyPossible = anyPossible || p > 0
		}
		switch {
		case !anyPossible && got != NoToken:
			t.Fatalf("trial %d: nothing is possible but Sample returned %d", trial, got)
		case anyPossible && (got < 0 || int(got) >= n || probs[got] == 0):
			t.Fatalf("trial %d: Sample returned %d, which has probability 0", trial, got)
		}
	}
	for _, l := range [][]float32{nil, {nan}, {-inf, nan, -inf}} {
		for _, o := range optsList {
			if got := New(o).Sample(l, []int32{0, 0}); got != NoToken {
				t.Errorf("logits %v: got %d, want NoToken", l, got)
			}
		}
	}
}
