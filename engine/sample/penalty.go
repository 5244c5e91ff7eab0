package sample

// penalties counts the tokens of the penalty window. counts is indexed by
// token id and is all zeros between calls: load sets the entries it needs and
// remembers them in touched so that clearing costs O(window), not O(vocab).
type penalties struct {
	counts  []int32
	touched []int32
}

// load counts the last lastN tokens of history (all of it for -1) whose ids
// lie in [0, limit); others cannot match any logit and are ignored. limit
// also bounds the memory used, whatever ids a caller passes. It returns the
// number of distinct tokens counted.
func (p *penalties) load(history []int32, lastN, limit int) int {
	for _, id := range p.touched {
		p.counts[id] = 0
	}
	p.touched = p.touched[:0]
	if lastN == 0 || limit <= 0 {
		return 0
	}
	if lastN > 0 && len(history) > lastN {
		history = history[len(history)-lastN:]
	}
	if len(p.counts) < limit {
		// Grow to the largest id actually present rather than to limit, so a
		// small history against a huge vocabulary stays small.
		need := len(p.counts)
		for _, id := range history {
			if int(id) >= need && int(id) < limit {
				need = int(id) + 1
			}
		}
		if need > len(p.counts) {
			p.counts = append(p.counts, make([]int32, need-len(p.counts))...)
		}
	}
	for _, id := range history {
		if id < 0 || int(id) >= limit {
			continue
		}
		if p.counts[id] == 0 {
			p.touched = append(p.touched, id)
		}
		p.counts[id]++
	}
	return len(p.touched)
}

// count returns how often id occurs in the loaded window.
func (p *penalties) count(id int32) int32 {
	if id < 0 || int(id) >= len(p.counts) {
		return 0
	}
	return p.counts[id]
}

// penalize applies llama.cpp's rule to one logit of a token seen count > 0
// times: the repeat penalty pushes the logit towards less likely whatever
// its sign (dividing a negative logit would raise it), then frequency and
// presence penalties subtract. float32 throughout, like llama.cpp; the
// explicit conversion keeps count*frequency + presence from being fused
// into an FMA on some platforms and not others.
func (o *Options) penalize(logit float32, count int32) float32 {
	if logit <= 0 {
		logit *= o.RepeatPenalty
	} else {
		logit /= o.RepeatPenalty
	}
	return logit - (float32(float32(count)*o.FrequencyPenalty) + o.PresencePenalty)
}
