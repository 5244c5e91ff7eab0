package sample

import "math"

// Sampler draws tokens with a fixed set of options and its own random
// stream. It keeps scratch buffers between calls, so it is not safe for
// concurrent use: give each generation stream its own Sampler.
type Sampler struct {
	o    Options
	bias map[int32]float32
	rng  rng
	pen  penalties
	work []float32 // biased, masked and penalized copy of the logits, so the caller's stay intact
	cand []cand
	w    []float64 // final weights of the draw
}

// New returns a Sampler seeded with o.Seed. It does not fail: any field that
// Validate would reject is replaced by its DefaultOptions value, so call
// Validate first to report bad options to the user.
func New(o Options) *Sampler {
	s := &Sampler{o: o.sanitized()}
	s.rng.seed(s.o.Seed)
	return s
}

// Options returns the options in use (after New's replacement of invalid
// fields).
func (s *Sampler) Options() Options { return s.o }

// Reseed restarts the random stream as if the Sampler were new with seed.
func (s *Sampler) Reseed(seed uint64) {
	s.o.Seed = seed
	s.rng.seed(seed)
}

// IsGreedy reports whether every step picks the highest penalized logit:
// temperature <= 0 (llama.cpp keeps only the maximum then) or top-k = 1.
// A greedy Sampler draws no random numbers.
func (s *Sampler) IsGreedy() bool { return s.o.Temperature <= 0 || s.o.TopK == 1 }

// HasPenalties reports whether the history changes the logits. When it does
// not, a greedy step is just Argmax of the raw logits (which a GPU backend
// can compute on the device).
func (s *Sampler) HasPenalties() bool {
	o := &s.o
	return o.RepeatLastN != 0 &&
		(o.RepeatPenalty != 1 || o.PresencePenalty != 0 || o.FrequencyPenalty != 0)
}

// SetBias adds bias[id] to token id's logit before anything else, as
// OpenAI's logit_bias does; a bias of -100 or less bans the token
// outright. A Sampler with biases reads whole logits: CandidatesNeeded
// says 0.
func (s *Sampler) SetBias(bias map[int32]float32) { s.bias = bias }

// Sample picks the next token from one step's logits (one per vocabulary
// entry) given the tokens so far (prompt and generated; only the last
// RepeatLastN matter). logits is read, never written. It returns NoToken
// when logits is empty or holds nothing but NaN and -Inf.
func (s *Sampler) Sample(logits []float32, history []int32) int32 {
	return s.SampleMasked(logits, history, nil)
}

// SampleMasked is Sample over the tokens allow holds (a bitset: bit id%64
// of word id/64; nil allows every token), as a grammar constrains them:
// the others are removed before the chain runs, so the draw follows the
// chain's distribution renormalized over the allowed tokens.
func (s *Sampler) SampleMasked(logits []float32, history []int32, allow []uint64) int32 {
	if len(logits) == 0 {
		return NoToken
	}
	vals := s.prepared(logits, history, allow)
	if s.IsGreedy() {
		return Argmax(vals)
	}
	if k := s.o.TopK; k > 0 && k < len(vals) {
		s.cand = selectTopK(s.cand, vals, k)
		return s.finish(s.cand)
	}
	return s.sampleFull(vals)
}

// prepared returns logits biased, masked and penalized, in a copy when
// any of them changes a logit, else logits itself.
func (s *Sampler) prepared(logits []float32, history []int32, allow []uint64) []float32 {
	if allow == nil && len(s.bias) == 0 {
		return s.penalized(logits, history)
	}
	w := append(s.work[:0], logits...)
	s.work = w
	ban := float32(math.Inf(-1))
	for id, b := range s.bias {
		if id < 0 || int(id) >= len(w) {
			continue
		}
		if b <= -100 {
			w[id] = ban
		} else {
			w[id] += b
		}
	}
	if allow != nil {
		for i := range w {
			if word := i >> 6; word >= len(allow) || allow[word]&(1<<(i&63)) == 0 {
				w[i] = ban
			}
		}
	}
	if s.HasPenalties() && s.pen.load(history, s.o.RepeatLastN, len(w)) > 0 {
		for _, id := range s.pen.touched {
			w[id] = s.o.penalize(w[id], s.pen.counts[id])
		}
	}
	return w
}

// penalized returns logits with the penalties applied, in a copy when any
// token of the window is in the vocabulary, else logits itself.
func (s *Sampler) penalized(logits []float32, history []int32) []float32 {
	if !s.HasPenalties() || s.pen.load(history, s.o.RepeatLastN, len(logits)) == 0 {
		return logits
	}
	s.work = append(s.work[:0], logits...)
	for _, id := range s.pen.touched {
		s.work[id] = s.o.penalize(s.work[id], s.pen.counts[id])
	}
	return s.work
}

// sampleFull runs the chain when top-k leaves the whole vocabulary in play,
// without sorting the vocabulary. Top-p and min-p each keep a prefix of the
// sorted order, and min-p's bound depends only on the maximum, which top-p
// always keeps; so the kept set is the shorter prefix, every member of it is
// at or above both bounds, and only the tokens above them need sorting.
func (s *Sampler) sampleFull(vals []float32) int32 {
	o := &s.o
	hi := maxLogit(vals)
	if !possible(hi) {
		return NoToken
	}
	floor := float32(math.Inf(-1))
	var z float64
	if o.TopP < 1 {
		floor, z = nucleusFloor(vals, hi, o.TopP)
	}
	if o.MinP > 0 {
		floor = max(floor, minPThreshold(hi, o.MinP))
	}
	c := collectAtLeast(s.cand, vals, floor)
	s.cand = c
	if o.TopP < 1 {
		sortCands(c)
		n, _ := topPCut(c, hi, z, o.TopP)
		c = c[:n]
	}
	return s.draw(c)
}

// finish applies top-p, min-p, temperature and the draw to sorted candidates
// that are the whole set top-p normalizes over.
func (s *Sampler) finish(c []cand) int32 {
	if len(c) == 0 {
		return NoToken
	}
	if s.o.TopP < 1 {
		hi := c[0].logit
		n, _ := topPCut(c, hi, sumCandWeights(c, hi), s.o.TopP)
		c = c[:n]
	}
	if s.o.MinP > 0 {
		c = c[:minPCut(c, s.o.MinP)]
	}
	return s.draw(c)
}

// draw applies the temperature and picks one candidate in proportion to its
// weight. It always consumes exactly one random number, even for a single
// candidate, so the stream stays in step whatever the filters left.
func (s *Sampler) draw(c []cand) int32 {
	u := s.rng.uniform()
	if len(c) == 0 {
		return NoToken
	}
	hi := c[0].logit
	for _, x := range c[1:] {
		if x.logit > hi {
			hi = x.logit
		}
	}
	invT := 1 / float64(s.o.Temperature)
	if cap(s.w) < len(c) {
		s.w = make([]float64, len(c))
	}
	w := s.w[:len(c)]
	var sum float64
	for i, x := range c {
		w[i] = weight(x.logit, hi, invT)
		sum += w[i]
	}
	// Strictly greater: with u in [0, 1) the target is below sum, and a
	// zero-weight candidate can never be picked, not even for u = 0.
	target := u * sum
	var cum float64
	last := NoToken
	for i, x := range c {
		if w[i] == 0 {
			continue
		}
		cum += w[i]
		last = x.id
		if cum > target {
			return x.id
		}
	}
	return last // rounding left target at the very top: the last token with weight
}
