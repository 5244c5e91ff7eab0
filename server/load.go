package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
)

// LoadModel starts loading the GGUF that ref names (through OpenFile) as
// the server's model and returns at once; requests wait until it is
// ready, and WebSocket clients see its progress (opts.Progress, when set,
// hears it too). It may be called once.
func (s *Server) LoadModel(ref string, opts engine.Options) {
	s.LoadModelWith(ModelName(ref), func() (string, engine.Options, error) { return ref, opts, nil })
}

// LoadModelWith is LoadModel for a model whose file and options take work
// to get (a download, a backend to open): prepare runs first, in the
// loading goroutine, so a server that is already listening answers
// "loading" meanwhile. name is the id the model is served under.
func (s *Server) LoadModelWith(name string, prepare func() (ref string, opts engine.Options, err error)) {
	l := newLocal(name, s.cfg.MaxQueue)
	l.queueTime = s.metrics.queue
	s.mu.Lock()
	if s.local != nil {
		s.mu.Unlock()
		panic("server: LoadModel called twice")
	}
	s.local = l
	s.mu.Unlock()
	// Progress goes out through a one-slot mailbox to a sender, so a client
	// that does not read slows no load; updates it is behind on are dropped,
	// the newest kept.
	// The final state goes out after the last of them and before any
	// waiting request is handed a session, so a client hears the load begin
	// and end before the first token of a request it sent meanwhile.
	box, sent := make(chan Progress, 1), make(chan struct{})
	post := func(p Progress) {
		for {
			select {
			case box <- p:
				return
			default:
				select {
				case <-box:
				default:
				}
			}
		}
	}
	go func() {
		for p := range box {
			s.broadcastProgress(p)
		}
		close(sent)
	}()
	go func() {
		ref, opts, err := prepare()
		if err == nil {
			err = s.load(l, ref, opts, post)
		}
		l.err = err
		if l.err != nil {
			s.cfg.Logf("loading %s: %v", name, l.err)
		} else {
			s.cfg.Logf("model %s ready: %d sessions of %d tokens", l.name, l.size, l.eng.Context)
		}
		close(l.ready)
		close(box)
		<-sent
		s.broadcastProgress(l.progress())
		l.mu.Lock()
		if err := l.loadErr(); err != nil {
			l.fail(err)
		}
		l.handOut()
		l.mu.Unlock()
	}()
}

func (s *Server) load(l *local, ref string, opts engine.Options, post func(Progress)) error {
	f, err := OpenFile(ref)
	if err != nil {
		return err
	}
	var total int64
	for _, t := range f.Tensors {
		total += int64(t.Size)
	}
	l.total.Store(total)
	post(l.progress())
	if opts.Backend == nil {
		opts.Backend = cpu.NewWith(cpu.Options{Threads: opts.Threads, Mapped: opts.Mapped})
	}
	// The bytes of weights bound are how far a load has come: uploading
	// them is nearly all of it. The engine reports them, and gets the
	// backend itself: a wrapper would hide the backend's optional
	// capabilities (gpu/capabilities.go), on a GPU chained greedy decode,
	// sampling candidates chosen on the device and dropping the file's
	// pages once the weights are uploaded. Report at most about a hundred
	// steps, however many tensors there are.
	step, next := max(total/100, 1), int64(0)
	caller := opts.Progress
	opts.Progress = func(done, of int64) {
		l.loaded.Store(done)
		if done >= next {
			next = done + step
			post(l.progress())
		}
		if caller != nil {
			caller(done, of)
		}
	}
	e, err := engine.New(f, opts)
	if err != nil {
		opts.Backend.Close()
		f.Close()
		return fmt.Errorf("%s: %w", ref, err)
	}
	b, err := openBatch(e, s.cfg.Parallel, availableMemory())
	if err != nil {
		e.Close()
		f.Close()
		return err
	}
	sessions := b.Sessions()
	if len(sessions) < s.cfg.Parallel {
		s.cfg.Logf("memory allows %d parallel sessions, not %d", len(sessions), s.cfg.Parallel)
	}
	l.eng, l.file, l.batch, l.size = e, f, b, len(sessions)
	l.mu.Lock()
	l.free = slices.Clone(sessions)
	l.mu.Unlock()
	return nil
}

// openBatch opens a batch of up to n sessions decoding together
// (engine.Batch), fewer when their KV caches would not fit in three
// quarters of the available memory (avail 0: unknown, no limit). Each
// session's slot holds the engine's full context, which is what bounds
// parallelism. The caches of a device backend live in its memory, which
// the device bounds itself (an allocation that does not fit fails).
func openBatch(e *engine.Engine, n int, avail uint64) (*engine.Batch, error) {
	cost := uint64(e.Context) * uint64(e.Model.CacheRowBytes())
	if _, device := e.Backend.(gpu.Copier); !device && avail > 0 && cost > 0 {
		n = max(1, min(n, int(avail/4*3/cost)))
	}
	return e.NewBatch(n)
}

func (l *local) progress() Progress {
	p := Progress{Model: l.name, State: "loading", Loaded: l.loaded.Load(), Total: l.total.Load()}
	select {
	case <-l.ready:
		p.State = "ready"
		if l.err != nil {
			p.State, p.Error = "failed", l.err.Error()
		}
	default:
	}
	return p
}

// WaitModel waits until the model LoadModel started is loaded and returns
// why loading failed, if it did (nil also when no model was asked for).
func (s *Server) WaitModel(ctx context.Context) error {
	s.mu.Lock()
	l := s.local
	s.mu.Unlock()
	if l == nil {
		return nil
	}
	select {
	case <-l.ready:
		return l.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
