package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/gguf"
)

// local is the model this process runs: its engine and one session per
// slot of a batch (engine.Batch: the sessions generating at once decode
// together, one step for all). A session is not safe for concurrent use,
// so a request takes a whole session and gives it back when done.
// Requests wait for one in a first-in, first-out queue of tickets, taken
// in the order requests arrive (a WebSocket connection takes them as it
// reads its messages), so with one slot requests run strictly one after
// another in that order.
type local struct {
	name  string
	ready chan struct{} // closed when loading ends, well or not
	err   error         // why loading failed, set before ready closes

	eng   *engine.Engine
	file  *gguf.Reader
	batch *engine.Batch
	size  int

	// pace, when set, delays every event: a browser test needs a
	// generation on a tiny model to last long enough to stop it.
	pace time.Duration

	// queueTime hears how long each request waited for its session.
	queueTime *histogram

	mu       sync.Mutex
	idle     *sync.Cond        // signalled when a session comes back
	free     []*engine.Session // sessions nobody holds
	waiting  []*ticket         // requests waiting for a session, oldest first
	refuse   error             // set when no more tickets are given (draining, closing)
	maxQueue int

	generating atomic.Int64 // sessions running a generation now
	loaded     atomic.Int64
	total      atomic.Int64
	closeMu    sync.Mutex
	closed     bool
}

func newLocal(name string, maxQueue int) *local {
	l := &local{name: name, ready: make(chan struct{}), maxQueue: maxQueue}
	l.idle = sync.NewCond(&l.mu)
	return l
}

// ticket is one request's place in the queue. Its channel receives the
// session when the request's turn comes, or is closed with err set when
// the request will never get one (the load failed, the server drains).
type ticket struct {
	l   *local
	ch  chan *engine.Session
	err error
	at  time.Time // when the request took it
}

// errBusy is returned when the queue is full.
var errBusy = retryLater(2, 503, "the server is busy: too many requests are waiting")

// enqueue takes a ticket: the request's place in the queue. It fails at
// once when the queue is full, the model failed to load or the server no
// longer takes requests.
func (l *local) enqueue() (*ticket, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.refuse != nil {
		return nil, l.refuse
	}
	if err := l.loadErr(); err != nil {
		return nil, err
	}
	if len(l.waiting) >= l.maxQueue {
		return nil, errBusy
	}
	t := &ticket{l: l, ch: make(chan *engine.Session, 1), at: time.Now()}
	l.waiting = append(l.waiting, t)
	l.handOut()
	return t, nil
}

// handOut gives free sessions to the oldest waiting tickets; l.mu is held.
func (l *local) handOut() {
	for len(l.free) > 0 && len(l.waiting) > 0 {
		s := l.free[len(l.free)-1]
		l.free = l.free[:len(l.free)-1]
		t := l.waiting[0]
		l.waiting = slices.Delete(l.waiting, 0, 1)
		t.ch <- s
	}
}

// fail ends every waiting ticket with err; l.mu is held.
func (l *local) fail(err error) {
	for _, t := range l.waiting {
		t.err = err
		close(t.ch)
	}
	l.waiting = nil
}

// wait blocks until the ticket's session is handed over. When ctx ends
// first the ticket leaves the queue (a session handed over meanwhile goes
// back).
func (t *ticket) wait(ctx context.Context) (*engine.Session, error) {
	select {
	case s, ok := <-t.ch:
		if !ok {
			return nil, t.err
		}
		return s, nil
	case <-ctx.Done():
		t.cancel()
		return nil, ctx.Err()
	}
}

// cancel gives up a ticket that has not been waited on to the end.
func (t *ticket) cancel() {
	l := t.l
	l.mu.Lock()
	if i := slices.Index(l.waiting, t); i >= 0 {
		l.waiting = slices.Delete(l.waiting, i, i+1)
		l.mu.Unlock()
		return
	}
	l.mu.Unlock()
	if s, ok := <-t.ch; ok {
		l.release(s)
	}
}

// release gives a session back: to the oldest waiting ticket, else to
// the free list.
func (l *local) release(s *engine.Session) {
	l.mu.Lock()
	l.free = append(l.free, s)
	l.handOut()
	l.idle.Broadcast()
	l.mu.Unlock()
}

// loadErr is why requests cannot run: the model failed to load (503).
func (l *local) loadErr() error {
	select {
	case <-l.ready:
	default:
		return nil
	}
	if l.err != nil {
		return &statusError{status: 503, msg: fmt.Sprintf("model %s failed to load: %v", l.name, l.err)}
	}
	return nil
}

// loading reports whether the model is still being loaded.
func (l *local) loading() bool {
	select {
	case <-l.ready:
		return false
	default:
		return true
	}
}

// loadingError is the answer of the HTTP API while the model loads: 503
// with Retry-After, saying how far the load has come.
func (l *local) loadingError() error {
	if total := l.total.Load(); total > 0 {
		return retryLater(5, 503, "model %s is loading (%d%% of its weights); retry shortly", l.name, 100*l.loaded.Load()/total)
	}
	return retryLater(5, 503, "model %s is loading; retry shortly", l.name)
}

// generate runs req on a session once its turn comes in the queue.
func (l *local) generate(ctx context.Context, req engine.Request, emit func(engine.Event) error) (*engine.Result, error) {
	return l.runTicket(ctx, nil, req, emit, func(*engine.Result, error) {})
}

// runTicket runs req on a session once the ticket's turn comes (t nil:
// take one now). end, when set, hears the result of a generation that
// ran while the session is still held, so that what it sends goes out
// before the next request in the queue starts.
func (l *local) runTicket(ctx context.Context, t *ticket, req engine.Request, emit func(engine.Event) error, end func(*engine.Result, error)) (*engine.Result, error) {
	var err error
	if t == nil {
		if t, err = l.enqueue(); err != nil {
			return nil, err
		}
	}
	s, err := t.wait(ctx)
	if err != nil {
		return nil, err
	}
	if l.queueTime != nil {
		l.queueTime.observe(time.Since(t.at).Seconds())
	}
	defer l.release(s)
	if pace := l.pace; pace > 0 && emit != nil {
		inner := emit
		emit = func(ev engine.Event) error {
			time.Sleep(pace)
			return inner(ev)
		}
	}
	l.generating.Add(1)
	res, err := s.Generate(ctx, req, emit)
	l.generating.Add(-1)
	if errors.Is(err, engine.ErrContextFull) {
		res, err = nil, &statusError{status: 400, msg: err.Error()}
	}
	end(res, err)
	return res, err
}

// queued is the number of requests waiting for a session.
func (l *local) queued() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.waiting)
}

// busy is the number of sessions generating now.
func (l *local) busy() int { return int(l.generating.Load()) }

// limits returns the context size and vocabulary size requests are
// checked against, once the model is loaded.
func (l *local) limits(ctx context.Context) (contextLen, vocab int, err error) {
	select {
	case <-l.ready:
	case <-ctx.Done():
		return 0, 0, ctx.Err()
	}
	if err := l.loadErr(); err != nil {
		return 0, 0, err
	}
	return l.eng.Context, l.eng.Tokenizer.VocabSize(), nil
}

// stopQueue refuses new tickets with err and ends the waiting ones with it.
func (l *local) stopQueue(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.refuse == nil {
		l.refuse = err
	}
	l.fail(err)
}

// close waits for every session to come back, then frees the engine.
func (l *local) close() error {
	l.closeMu.Lock()
	defer l.closeMu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	l.stopQueue(errShuttingDown)
	<-l.ready
	if l.err != nil {
		return nil
	}
	l.mu.Lock()
	for len(l.free) < l.size {
		l.idle.Wait()
	}
	l.mu.Unlock()
	return errors.Join(l.batch.Close(), l.eng.Close(), l.file.Close())
}
