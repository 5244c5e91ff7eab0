package cpu

import (
	"fmt"
	"sync/atomic"

	"github.com/emberllm/ember/gpu"
)

// program is a compiled graph.
type program struct {
	be        *Backend
	name      string
	tokens    int
	nops      int
	kernels   []*kernel
	barrier   []bool // barrier[i]: all workers meet before kernel i
	splitters []*splitter
	// maxPos is the largest Params.Pos the caches the graph touches allow.
	maxPos int
	// span is the graph's Span: no placed token sits at a position past it.
	span       int
	arenaBytes int

	pos    int         // the current run's Params.Pos
	places []gpu.Place // the current run's Params.Places
	err    atomic.Pointer[error]
}

var _ gpu.Program = (*program)(nil)

func (p *program) Kernels() int { return p.nops }

// Run executes every kernel once on the pool.
func (p *program) Run(params gpu.Params) error {
	if err := gpu.CheckRun(params, p.tokens, p.maxPos, p.span); err != nil {
		return fmt.Errorf("cpu: %s: %w", p.name, err)
	}
	pl := p.be.pool
	if pl.stopped.Load() {
		return fmt.Errorf("cpu: %s: the backend is closed", p.name)
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	p.pos, p.places = params.Pos, params.Places
	for _, s := range p.splitters {
		s.next.Store(0)
	}
	p.err.Store(nil)
	pl.run(p.exec)
	if e := p.err.Load(); e != nil {
		return fmt.Errorf("cpu: %s: %w", p.name, *e)
	}
	return nil
}

func (p *program) exec(ith int) {
	pl, nth := p.be.pool, p.be.pool.n
	for i, k := range p.kernels {
		if p.barrier[i] {
			pl.barrier()
		}
		if k.serial {
			if ith == 0 {
				k.run(0, 1)
			}
		} else {
			k.run(ith, nth)
		}
	}
}

// fail records the first error a kernel meets in data it reads at run time
// (a token or expert id out of range); the kernel carries on safely.
func (p *program) fail(err error) { p.err.CompareAndSwap(nil, &err) }

// posOf is the position of the run's token t in its sequence.
func (p *program) posOf(t int) int {
	if p.places != nil {
		return p.places[t].Pos
	}
	return p.pos + t
}

// baseOf is the first cache row of the sequence of the run's token t.
func (p *program) baseOf(t int) int {
	if p.places != nil {
		return p.places[t].Base
	}
	return 0
}

// needCtx records that tokens are stored or read at positions up to
// Pos+tokens-1 of a cache of ctx rows.
func (p *program) needCtx(ctx int) { p.maxPos = min(p.maxPos, ctx-p.tokens) }
