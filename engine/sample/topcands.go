package sample

// SampleCandidates is Sample for backends that read back only a short list
// of candidates (ids[i] with logits[i], in any order) instead of the whole
// vocabulary. It runs the same chain, treating the list as if it were the
// whole vocabulary, and reads, never writes, its arguments.
//
// The result has exactly Sample's distribution over the full logits when
//   - top-k is on (TopK >= 1), and
//   - the list holds the TopK + P highest raw logits, where P is the number
//     of distinct tokens in the penalty window (0 without penalties), and
//   - the penalties never raise a logit (RepeatPenalty >= 1 and presence and
//     frequency penalties >= 0),
//
// up to ties at the boundary of the list. Why: at most P listed tokens get
// lowered, every unlisted token is unpenalized and no higher than the
// lowest listed one, so the TopK best penalized tokens are all in the list,
// and top-p, min-p and the draw only ever look at those. CandidatesNeeded
// computes the size. Otherwise the result is an approximation that ignores
// the probability mass outside the list.
//
// Negative ids and NaN or -Inf logits are skipped; NoToken is returned when
// nothing usable is left or the two slices differ in length.
func (s *Sampler) SampleCandidates(ids []int32, logits []float32, history []int32) int32 {
	if len(ids) != len(logits) || len(ids) == 0 {
		return NoToken
	}
	pen := false
	if s.HasPenalties() {
		var top int32 = -1
		for _, id := range ids {
			top = max(top, id)
		}
		pen = s.pen.load(history, s.o.RepeatLastN, int(top)+1) > 0
	}
	c := s.cand[:0]
	for i, id := range ids {
		if id < 0 {
			continue
		}
		v := logits[i]
		if pen {
			if n := s.pen.count(id); n > 0 {
				v = s.o.penalize(v, n)
			}
		}
		if possible(v) {
			c = append(c, cand{id, v})
		}
	}
	s.cand = c
	if len(c) == 0 {
		return NoToken
	}
	if s.IsGreedy() {
		best := c[0]
		for _, x := range c[1:] {
			if better(x, best) {
				best = x
			}
		}
		return best.id
	}
	sortCands(c)
	if k := s.o.TopK; k > 0 && k < len(c) {
		c = c[:k]
	}
	return s.finish(c)
}

// CandidatesNeeded returns how many top raw-logit candidates a backend must
// read back for SampleCandidates to match Sample exactly, given the length
// of the history the step will be sampled with; 0 when no list short of the
// whole vocabulary guarantees it (top-k off, or a penalty that can raise a
// logit, a logit bias). A greedy sampler without penalties needs 1.
func (s *Sampler) CandidatesNeeded(historyLen int) int {
	o := &s.o
	if len(s.bias) > 0 {
		return 0 // a bias can raise any token into the list
	}
	if o.RepeatPenalty < 1 || o.PresencePenalty < 0 || o.FrequencyPenalty < 0 {
		if s.HasPenalties() {
			return 0
		}
	}
	k := o.TopK
	if o.Temperature <= 0 {
		k = 1
	}
	if k <= 0 {
		return 0
	}
	if s.HasPenalties() {
		window := historyLen
		if o.RepeatLastN > 0 {
			window = min(window, o.RepeatLastN)
		}
		k += max(window, 0)
	}
	return k
}
