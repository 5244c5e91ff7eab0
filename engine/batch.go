package engine

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu"
)

// Batch is continuous batching: the sessions it opens share one KV cache
// (a slot of the engine's context each) and one decode step. A session of
// a batch generates exactly as a session of its own does (session.go: its
// prompt, sampling, stop strings and prefix reuse are its own), but every
// step it runs goes to the batch's scheduler, one goroutine that runs the
// decode tokens of every session that has one waiting as one batch step
// (model.NewBatchStep: each token at its own position and slot, the
// arithmetic of each that of a step of it alone), then one prefill chunk
// of the session that has waited longest, and again. Sessions join
// between steps as their requests arrive and leave when they finish; a
// long prompt is prefilled a chunk between two decode steps, so it does
// not stall the others' tokens.
//
// A batch step is compiled once per bucket of batch sizes (powers of two,
// and the slot count); a batch of fewer sequences than its bucket fills the
// rest with padding tokens, each stored in a spare cache row of its own.
type Batch struct {
	e      *Engine
	cache  *model.Cache
	slots  []*Session
	spare  int // the first padding row: past every slot
	decode map[batchKey]*model.Step
	chunks map[int]*model.Step // placed prefill steps by size
	chosen gpu.Buffer          // the tokens a chain's steps chose, chainSteps columns a step
	// prepared is the decode step's next run, recorded while the device
	// runs the last (runDecode).
	prepared *preparedRun

	mu   sync.Mutex
	cond *sync.Cond
	// queue holds the runs sessions asked for, oldest first.
	queue []*batchRun
	// expect holds the sessions of the last decode step that have neither
	// asked for their next run nor left: the next step waits for them a
	// while (gather).
	expect map[*Session]bool
	last   time.Duration // how long the last decode step took
	closed bool
	done   chan struct{}

	stats batchCounters
}

// batchKey names a compiled batch step: its bucket and the candidates it
// chooses per token.
type batchKey struct{ bucket, top int }

// batchRun is one run a session asks for: tokens at a position of its
// slot, and what it will read of the results (want). A greedy decode
// token may ask for a chain of up to chain steps, each fed the token the
// step before chose, on the device (chain.go): the scheduler chains a
// decode step where every token of it asks for one.
type batchRun struct {
	s     *Session
	ids   []int32
	pos   int
	want  batchWant
	chain int
	done  chan error
}

// batchWant is what a session reads after a run, copied out by the
// scheduler before the next run reuses the step's buffers: the argmax
// always, with top the best top logits and their ids, with logits the
// whole row of logits.
type batchWant struct {
	top    int
	logits bool
}

// NewBatch opens a batch of slots sessions, each with a context of the
// engine's size, and starts its scheduler. Close stops it.
func (e *Engine) NewBatch(slots int) (*Batch, error) {
	if slots < 1 || slots > gpu.MaxPlaces {
		return nil, fmt.Errorf("a batch of %d sessions (1 to %d)", slots, gpu.MaxPlaces)
	}
	// slots-1 spare rows: a bucket holds at most slots tokens, one of
	// them a session's.
	c, err := e.Model.NewCacheRows(e.Context, slots*e.Context+slots-1)
	if err != nil {
		return nil, err
	}
	b := &Batch{e: e, cache: c, spare: slots * e.Context, decode: map[batchKey]*model.Step{}, chunks: map[int]*model.Step{},
		expect: map[*Session]bool{}, done: make(chan struct{})}
	b.cond = sync.NewCond(&b.mu)
	for i := range slots {
		s := e.newSession(c)
		s.batch, s.base = b, i*e.Context
		b.slots = append(b.slots, s)
	}
	go b.schedule()
	return b, nil
}

// Sessions are the batch's sessions, one per slot. Each is used by one
// generation at a time, as any session.
func (b *Batch) Sessions() []*Session { return b.slots }

// Close stops the scheduler once the runs asked for are done; runs asked
// for later fail.
func (b *Batch) Close() error {
	b.mu.Lock()
	b.closed = true
	b.cond.Broadcast()
	b.mu.Unlock()
	<-b.done
	return nil
}

// errBatchClosed is what a run asked of a closed batch returns.
var errBatchClosed = errors.New("the batch is closed")

// run has the scheduler run ids at pos of s's slot and waits until the
// results s wants are copied into s.
func (b *Batch) run(s *Session, ids []int32, pos int, want batchWant, chain int) error {
	r := &batchRun{s: s, ids: ids, pos: pos, want: want, chain: chain, done: make(chan error, 1)}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return errBatchClosed
	}
	b.queue = append(b.queue, r)
	delete(b.expect, s)
	b.cond.Broadcast()
	b.mu.Unlock()
	s.active(true)
	return <-r.done
}

// leave says s asks for no more runs for now (its generation ended), so
// the next decode step does not wait for it.
func (b *Batch) leave(s *Session) {
	s.active(false)
	b.mu.Lock()
	if b.expect[s] {
		delete(b.expect, s)
		b.cond.Broadcast()
	}
	b.mu.Unlock()
}

// bucket is the batch size compiled for n tokens: the next power of two,
// or the slot count when that is smaller.
func (b *Batch) bucket(n int) int {
	k := 1
	for k < n {
		k *= 2
	}
	return min(k, len(b.slots))
}
