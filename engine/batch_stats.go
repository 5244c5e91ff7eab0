package engine

import "sync/atomic"

// batchCounters are a batch's totals since it opened.
type batchCounters struct {
	steps, tokens, prefill atomic.Int64
}

// BatchStats is a snapshot of a batch: what a server behind a load
// balancer reports (how busy it is, how full its KV cache).
type BatchStats struct {
	Slots int // sessions
	// Active is the sessions generating now.
	Active int
	// Steps is the decode steps run, Tokens the sequences' tokens they
	// decoded (padding left out: Tokens/Steps is the mean batch size),
	// PrefillTokens the prompt tokens run in prefill chunks.
	Steps, Tokens, PrefillTokens int64
	// KVUsed is the cache rows the active sessions' sequences hold, of
	// KVRows (every slot's).
	KVUsed, KVRows int
}

// Stats is a snapshot of the batch.
func (b *Batch) Stats() BatchStats {
	st := BatchStats{Slots: len(b.slots), KVRows: len(b.slots) * b.e.Context,
		Steps: b.stats.steps.Load(), Tokens: b.stats.tokens.Load(), PrefillTokens: b.stats.prefill.Load()}
	for _, s := range b.slots {
		if s.busy.Load() {
			st.Active++
			st.KVUsed += int(s.rows.Load())
		}
	}
	return st
}

// active marks s generating or not; the rows its sequence holds count
// while it is.
func (s *Session) active(on bool) {
	s.busy.Store(on)
	if !on {
		s.rows.Store(0)
	}
}
