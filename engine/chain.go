package engine

import (
	"encoding/binary"
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu"
)

// chainSteps is how many greedy decode steps a device backend gets at
// once: each step's argmax is copied on the device into the next step's
// token, so the host encodes step n+1 while the device runs step n, and
// the chosen tokens come back in one read per chain instead of one wait
// per token. A lone session's chains overlap (chainPipe): the next chain
// is submitted before the last one's tokens are read, so the device never
// waits for the host between chains, and a chain's length only sets how
// many tokens reach the caller together and how many steps run past a
// stop. A batch's chains are run one at a time (batch_chain.go), and new
// requests join between them.
const chainSteps = 8

// chainPipe is a lone session's greedy decode on a device backend: chains
// of steps, each step fed on the device the token the one before chose,
// the next chain submitted before the previous chain's tokens are read.
// Every token it hands out has been fed to a step already, but the last
// one its budget allows.
type chainPipe struct {
	s      *Session
	st     *model.Step
	cp     gpu.Copier
	pos    int        // the position of the next step to submit
	left   int        // steps the budget still allows
	ready  []int32    // tokens read back, not yet handed out
	flight []chainRun // submitted chains not read yet, oldest first
	turn   int        // which of the session's chosen buffers the next chain writes
}

// chainRun is a submitted chain: its steps' choices are being copied out.
type chainRun struct {
	k    int
	wait func([]byte) error
}

// startChains runs the decode step for first (chosen on the host, at
// position pos) as the first of a chain, and returns the pipe that hands
// out the tokens of up to steps steps from there. It returns nil, having
// run nothing, where the backend cannot chain (no device copies or started
// reads), chains are off (chainLen < 2), or the budget is one step.
func (s *Session) startChains(first int32, pos, steps int) (*chainPipe, error) {
	cp, ok := s.e.Backend.(gpu.Copier)
	if !ok || s.chainLen < 2 || steps < 2 {
		return nil, nil
	}
	st, err := s.step(1)
	if err != nil {
		return nil, err
	}
	for i := range s.chosen {
		if s.chosen[i] == nil {
			if s.chosen[i], err = s.e.Backend.Alloc(fmt.Sprintf("chain.chosen.%d", i), gguf.I32, gpu.Shape4(chainSteps)); err != nil {
				return nil, err
			}
		}
		if _, ok := s.chosen[i].(gpu.ReadStarter); !ok {
			return nil, nil
		}
	}
	if err := s.run([]int32{first}, pos); err != nil {
		return nil, err
	}
	p := &chainPipe{s: s, st: st, cp: cp, pos: pos, left: steps}
	if err := p.submit(true); err != nil {
		return nil, err
	}
	return p, nil
}

// submit queues the next chain: its steps, the first already run where
// started (startChains), each later one fed the token the step before it
// chose, every step's choice copied into the chain's buffer, and the
// buffer's read.
func (p *chainPipe) submit(started bool) error {
	k := min(p.left, p.s.chainLen, chainSteps)
	buf := p.s.chosen[p.turn]
	p.turn ^= 1
	for j := range k {
		if j > 0 || !started {
			if err := p.cp.CopyBuffer(p.st.Tokens, 0, p.st.Next, 0, 4); err != nil {
				return err
			}
			if err := p.st.Program.Run(gpu.Params{Pos: p.pos}); err != nil {
				return fmt.Errorf("chained decode step at position %d: %w", p.pos, err)
			}
		}
		if err := p.cp.CopyBuffer(buf, 4*j, p.st.Next, 0, 4); err != nil {
			return err
		}
		p.pos++
	}
	p.left -= k
	p.s.lastRun = p.st
	wait, err := buf.(gpu.ReadStarter).StartRead(0, 4*k)
	if err != nil {
		return err
	}
	p.flight = append(p.flight, chainRun{k, wait})
	return nil
}

// next returns the next token. Before it waits for the oldest chain's
// tokens it submits the chain after that one, while the budget allows, so
// the device has work while the host reads.
func (p *chainPipe) next() (int32, error) {
	if len(p.ready) == 0 {
		if len(p.flight) < 2 && p.left > 0 {
			if err := p.submit(false); err != nil {
				return 0, err
			}
		}
		if len(p.flight) == 0 {
			return 0, fmt.Errorf("decode chains: asked for a token past the %d steps allowed", p.pos)
		}
		c := p.flight[0]
		p.flight = p.flight[1:]
		raw := make([]byte, 4*c.k)
		if err := c.wait(raw); err != nil {
			return 0, err
		}
		for i := range c.k {
			p.ready = append(p.ready, int32(binary.LittleEndian.Uint32(raw[4*i:])))
		}
	}
	id := p.ready[0]
	p.ready = p.ready[1:]
	return id, nil
}
