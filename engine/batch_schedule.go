package engine

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu"
)

// The scheduler of a Batch: one goroutine taking the runs sessions ask for
// and running them, each iteration a decode step of every single token
// waiting and a prefill chunk of the oldest longer run.

// schedule is the scheduler's goroutine; it ends when the batch is closed
// and no run is left.
func (b *Batch) schedule() {
	defer close(b.done)
	for {
		singles, chunk, ok := b.next()
		if !ok {
			return
		}
		if len(singles) > 0 {
			start := time.Now()
			err := b.runDecode(singles, chunk == nil)
			b.mu.Lock()
			b.last = time.Since(start)
			for _, r := range singles {
				b.expect[r.s] = true
			}
			b.mu.Unlock()
			finish(singles, err)
		}
		if chunk != nil {
			finish([]*batchRun{chunk}, b.runChunk(chunk))
		}
	}
}

// finish hands each run its outcome.
func finish(rs []*batchRun, err error) {
	for _, r := range rs {
		r.done <- err
	}
}

// next waits for runs and takes those of the next iteration: every run of
// one token (a decode token, or the last token of a prompt) and the oldest
// longer run (a prefill chunk). Before the decode step it gathers the
// sessions of the last one: each that is still generating asks for its
// next token as soon as it has sampled the last, and a step that waits
// for them a little batches them all; one that does not come within the
// last step's time (a client slow to take its text) joins a later step.
func (b *Batch) next() (singles []*batchRun, chunk *batchRun, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.queue) == 0 {
		if b.closed {
			return nil, nil, false
		}
		b.cond.Wait()
	}
	if len(b.expect) > 0 {
		deadline := time.Now().Add(b.last)
		t := time.AfterFunc(b.last, func() {
			b.mu.Lock()
			b.cond.Broadcast()
			b.mu.Unlock()
		})
		for len(b.expect) > 0 && time.Now().Before(deadline) {
			b.cond.Wait()
		}
		t.Stop()
		clear(b.expect)
	}
	rest := b.queue[:0]
	for _, r := range b.queue {
		switch {
		case len(r.ids) == 1:
			singles = append(singles, r)
		case chunk == nil:
			chunk = r
		default:
			rest = append(rest, r)
		}
	}
	clear(b.queue[len(rest):])
	b.queue = rest
	return singles, chunk, true
}

// runDecode runs one batch step of the single tokens rs, or a chain of
// them (chainLen), and copies out what each session wants.
func (b *Batch) runDecode(rs []*batchRun, chained bool) error {
	n := len(rs)
	B := b.bucket(n)
	top := 0
	for _, r := range rs {
		top = max(top, r.want.top)
	}
	st, err := b.decodeStep(B, top)
	if err != nil {
		return err
	}
	ids := make([]int32, B)
	places := make([]gpu.Place, B)
	for c := range B {
		if c < n {
			r := rs[c]
			ids[c], places[c] = r.ids[0], gpu.Place{Pos: r.pos, Base: r.s.base}
			r.s.rows.Store(int64(r.pos + 1))
		} else {
			places[c] = gpu.Place{Pos: 0, Base: b.spare + c - n}
		}
	}
	if err := writeIDs(st.Tokens, ids); err != nil {
		return err
	}
	pr := b.prepared
	b.prepared = nil
	if err := pr.run(st, gpu.Params{Places: places}); err != nil {
		return err
	}
	k := 1
	if chained {
		k = b.chainLen(rs)
	}
	if err := b.startChain(st, rs, places, k); err != nil {
		return err
	}
	// The next decode step waits for these tokens (sampled ones go through
	// their sessions); its commands, most often this step's again, are
	// recorded while the device runs these, before the host waits for them.
	if b.prepared, err = prepare(st); err != nil {
		return err
	}
	if err := b.readChain(rs, len(places), k); err != nil {
		return err
	}
	b.stats.steps.Add(int64(k))
	b.stats.tokens.Add(int64(n * k))
	return b.copyOut(st, rs)
}

// runChunk runs a prefill chunk placed in its session's slot.
func (b *Batch) runChunk(r *batchRun) error {
	st, ok := b.chunks[len(r.ids)]
	if !ok {
		var err error
		if st, err = b.e.Model.NewStep(b.cache, len(r.ids)); err != nil {
			return err
		}
		b.chunks[len(r.ids)] = st
	}
	places := make([]gpu.Place, len(r.ids))
	for t := range places {
		places[t] = gpu.Place{Pos: r.pos + t, Base: r.s.base}
	}
	r.s.rows.Store(int64(r.pos + len(r.ids)))
	if err := writeIDs(st.Tokens, r.ids); err != nil {
		return err
	}
	if err := st.Program.Run(gpu.Params{Places: places}); err != nil {
		return err
	}
	b.stats.prefill.Add(int64(len(r.ids)))
	return b.copyOut(st, []*batchRun{r})
}

// decodeStep is the batch step of a bucket choosing top candidates a
// token, compiled once.
func (b *Batch) decodeStep(bucket, top int) (*model.Step, error) {
	k := batchKey{bucket, top}
	if st, ok := b.decode[k]; ok {
		return st, nil
	}
	st, err := b.e.Model.NewBatchStep(b.cache, bucket, top)
	if err != nil {
		return nil, fmt.Errorf("the batch step of %d tokens: %w", bucket, err)
	}
	b.decode[k] = st
	return st, nil
}

// copyOut copies the results of st's run that each run's session wants
// into the session (its token r's column of st): the argmax, the
// candidates, the logits. The next run of st overwrites its buffers, and
// the sessions read theirs after the scheduler has moved on.
func (b *Batch) copyOut(st *model.Step, rs []*batchRun) error {
	next := make([]byte, 4*st.Outputs)
	if err := st.Next.Read(0, next); err != nil {
		return err
	}
	var ids, vals []byte
	vocab := b.e.Model.Config.Vocab
	for c, r := range rs {
		s := r.s
		s.batchNext = int32(binary.LittleEndian.Uint32(next[4*c:]))
		s.view = model.Step{T: len(r.ids), Outputs: 1}
		if r.want.top > 0 {
			if ids == nil {
				ids, vals = make([]byte, 4*st.Top*st.Outputs), make([]byte, 4*st.Top*st.Outputs)
				if err := st.TopIDs.Read(0, ids); err != nil {
					return err
				}
				if err := st.TopVals.Read(0, vals); err != nil {
					return err
				}
			}
			s.view.Top = st.Top
			s.candIDs, s.candVals = s.candIDs[:0], s.candVals[:0]
			for i := range st.Top {
				o := 4 * (c*st.Top + i)
				s.candIDs = append(s.candIDs, int32(binary.LittleEndian.Uint32(ids[o:])))
				s.candVals = append(s.candVals, math.Float32frombits(binary.LittleEndian.Uint32(vals[o:])))
			}
		}
		if r.want.logits {
			raw := make([]byte, 4*vocab)
			if err := st.Logits.Read(4*vocab*c, raw); err != nil {
				return err
			}
			for i := range s.logits {
				s.logits[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
			}
		}
	}
	return nil
}

// writeIDs writes token ids to a step's tokens.
func writeIDs(buf gpu.Buffer, ids []int32) error {
	raw := make([]byte, 4*len(ids))
	for i, id := range ids {
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(id))
	}
	return buf.Write(0, raw)
}
