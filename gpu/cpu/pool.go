package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// pool is one set of persistent workers. The caller of run is worker 0;
// workers 1..n-1 are goroutines that spin for a short while after each job
// (so the next decode step finds them awake, as llama.cpp's threadpool
// does) and then park on a channel until woken.
type pool struct {
	n   int
	mu  sync.Mutex // one job at a time
	gen atomic.Uint64
	job func(ith int)

	// barrier state: arrivals in the current phase, and the phase number.
	count atomic.Int32
	_     [60]byte // keep the hot counters on separate cache lines
	phase atomic.Uint32
	_     [60]byte

	workers []*worker
	stopped atomic.Bool
	exited  sync.WaitGroup
}

type worker struct {
	sleeping atomic.Int32
	wake     chan struct{}
	_        [48]byte
}

// idleSpin is how long a worker polls for the next job before parking.
const idleSpin = 300 * time.Microsecond

func newPool(n int) *pool {
	p := &pool{n: n}
	for i := 1; i < n; i++ {
		w := &worker{wake: make(chan struct{}, 1)}
		p.workers = append(p.workers, w)
		p.exited.Add(1)
		// The generation is read here, not in the goroutine: one that
		// starts late must still see the first job as new.
		go p.loop(i, w, p.gen.Load())
	}
	return p
}

// run executes job(ith) on every worker and returns when all are done.
// The caller holds p.mu.
func (p *pool) run(job func(ith int)) {
	p.job = job
	p.gen.Add(1)
	p.wakeSleepers()
	job(0)
	p.barrier()
}

func (p *pool) wakeSleepers() {
	for _, w := range p.workers {
		if w.sleeping.CompareAndSwap(1, 0) {
			w.wake <- struct{}{}
		}
	}
}

func (p *pool) loop(ith int, w *worker, seen uint64) {
	defer p.exited.Done()
	for {
		seen = p.await(w, seen)
		if p.stopped.Load() {
			return
		}
		p.job(ith)
		p.barrier()
	}
}

// await returns the new generation once a job (or stop) is posted.
func (p *pool) await(w *worker, seen uint64) uint64 {
	start := time.Now()
	for i := 0; ; i++ {
		if g := p.gen.Load(); g != seen {
			return g
		}
		if i&255 == 255 && time.Since(start) > idleSpin {
			break
		}
	}
	for {
		w.sleeping.Store(1)
		if g := p.gen.Load(); g != seen {
			// A job arrived while going to sleep: whoever clears the flag
			// owns the wake-up token.
			if !w.sleeping.CompareAndSwap(1, 0) {
				<-w.wake
			}
			return g
		}
		<-w.wake
		if g := p.gen.Load(); g != seen {
			return g
		}
	}
}

// barrier blocks until all n workers have called it.
func (p *pool) barrier() {
	if p.n == 1 {
		return
	}
	ph := p.phase.Load()
	if p.count.Add(1) == int32(p.n) {
		p.count.Store(0)
		p.phase.Add(1)
		return
	}
	for i := 0; p.phase.Load() == ph; i++ {
		switch {
		case i > 1<<17:
			// Long waits mean the worker we wait for has no core (other
			// processes, or more workers than cores): Gosched keeps this
			// thread on its core, a short sleep hands the core back.
			time.Sleep(20 * time.Microsecond)
		case i > 20000:
			runtime.Gosched()
		}
	}
}

func (p *pool) close() {
	if p.stopped.Swap(true) {
		return
	}
	p.mu.Lock()
	p.gen.Add(1)
	p.wakeSleepers()
	p.mu.Unlock()
	p.exited.Wait()
}
