package metal

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// program is a compiled graph: its commands in order and the activation
// memory it owns.
type program struct {
	be     *Backend
	name   string
	tokens int
	cmds   []*command
	owned  []memory
	// maxPos is the last position a step may start at: its tokens must
	// fit every cache it stores to or reads.
	maxPos int
	// span is the graph's Span: no placed token sits at a position past
	// it, and the attention grids are sized to it.
	span int
	// checks validate ids the host wrote before each run.
	checks []func() error
}

var _ gpu.Program = (*program)(nil)

func (p *program) Kernels() int { return len(p.cmds) }

// needCtx records that the step stores or reads positions up to
// Pos+tokens-1 of a cache of ctx rows.
func (p *program) needCtx(ctx int) { p.maxPos = min(p.maxPos, ctx-p.tokens) }

// Run commits every command in one command buffer, the position (or the
// tokens' places) passed to the kernels that read it; it does not wait for
// the device.
func (p *program) Run(params gpu.Params) error {
	if p.be.closed {
		return fmt.Errorf("metal: %s: the backend is closed", p.name)
	}
	if err := gpu.CheckRun(params, p.tokens, p.maxPos, p.span); err != nil {
		return fmt.Errorf("metal: %s: %w", p.name, err)
	}
	if len(p.checks) > 0 {
		// The host wrote the ids; the device must be done with the last
		// step before they are read here.
		if err := p.be.Sync(); err != nil {
			return err
		}
		for _, check := range p.checks {
			if err := check(); err != nil {
				return fmt.Errorf("metal: %s: %w", p.name, err)
			}
		}
	}
	if err := p.be.dev.run(p.cmds, stepOf(params)); err != nil {
		return fmt.Errorf("metal: %s: %w", p.name, err)
	}
	return nil
}

// stepOf is the step the kernels read (gpu.StepBytes), padded to the
// size of the struct they declare.
func stepOf(params gpu.Params) []byte {
	st := make([]byte, stepBytes)
	copy(st, gpu.StepBytes(params))
	return st
}

func (p *program) release() {
	for _, m := range p.owned {
		m.release()
	}
	p.owned = nil
}
