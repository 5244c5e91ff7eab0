package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/gguf"
)

// local is the model this process runs: its engine and one session per
// slot. A session is not safe for concurrent use, so a request takes a
// whole session from the slots channel and gives it back when done; that
// channel is also the queue. Sessions share the weights; on the CPU backend
// their steps interleave on the one worker pool.
type local struct {
	name  string
	ready chan struct{} // closed when loading ends, well or not
	err   error         // why loading failed, set before ready closes

	eng   *engine.Engine
	file  *gguf.Reader
	slots chan *engine.Session
	size  int

	// pace, when set, delays every event: a browser test needs a
	// generation on a tiny model to last long enough to stop it.
	pace time.Duration

	queued   atomic.Int64
	maxQueue int64
	loaded   atomic.Int64
	total    atomic.Int64
	closeMu  sync.Mutex
	closed   bool
}

// errBusy is returned when the queue is full.
var errBusy = errors.New("the server is busy: too many requests are waiting")

// generate waits for the model and a free session, then runs req on it.
func (l *local) generate(ctx context.Context, req engine.Request, emit func(engine.Event) error) (*engine.Result, error) {
	select {
	case <-l.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if l.err != nil {
		return nil, &statusError{503, fmt.Sprintf("model %s failed to load: %v", l.name, l.err)}
	}
	if l.queued.Add(1) > l.maxQueue {
		l.queued.Add(-1)
		return nil, &statusError{503, errBusy.Error()}
	}
	var s *engine.Session
	select {
	case s = <-l.slots:
		l.queued.Add(-1)
	case <-ctx.Done():
		l.queued.Add(-1)
		return nil, ctx.Err()
	}
	defer func() { l.slots <- s }()
	if pace := l.pace; pace > 0 && emit != nil {
		inner := emit
		emit = func(ev engine.Event) error {
			time.Sleep(pace)
			return inner(ev)
		}
	}
	res, err := s.Generate(ctx, req, emit)
	if errors.Is(err, engine.ErrContextFull) {
		return nil, &statusError{400, err.Error()}
	}
	return res, err
}

// busy is the number of sessions generating now.
func (l *local) busy() int {
	select {
	case <-l.ready:
	default:
		return 0
	}
	if l.err != nil {
		return 0
	}
	return l.size - len(l.slots)
}

// limits returns the context size and vocabulary size requests are
// checked against, once the model is loaded.
func (l *local) limits(ctx context.Context) (contextLen, vocab int, err error) {
	select {
	case <-l.ready:
	case <-ctx.Done():
		return 0, 0, ctx.Err()
	}
	if l.err != nil {
		return 0, 0, &statusError{503, fmt.Sprintf("model %s failed to load: %v", l.name, l.err)}
	}
	return l.eng.Context, l.eng.Tokenizer.VocabSize(), nil
}

// close waits for every session to come back, then frees the engine.
func (l *local) close() error {
	l.closeMu.Lock()
	defer l.closeMu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	<-l.ready
	if l.err != nil {
		return nil
	}
	for range l.size {
		<-l.slots
	}
	return errors.Join(l.eng.Close(), l.file.Close())
}
