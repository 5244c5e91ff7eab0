package engine

import (
	"encoding/binary"
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// chainSteps is how many greedy decode steps a device backend gets at
// once at first, and always in a batch: each step's argmax is copied on
// the device into the next step's token, so the host encodes step n+1
// while the device runs step n, and the chosen tokens come back in one
// read per chain instead of one wait per token. At each chain's end the
// device idles while the host waits for the read and encodes the next
// chain's first step, which longer chains spread over more tokens (a
// lone session's grow: chainFor); they stream tokens in larger bursts and
// compute more steps past a stop.
const chainSteps = 8

// chainMax is the longest chain a lone session runs (chainFor).
const chainMax = 32

// chainFor is the chain length for a request that has made n tokens: as
// many as it has made, from chainSteps to chainMax. The first tokens come
// as soon as a short chain has them; each later burst at most doubles the
// text, and a long answer runs in chains of chainMax.
func chainFor(n int) int { return min(max(n, chainSteps), chainMax) }

// chain runs the decode step for first (chosen on the host, at position
// pos), then up to k-1 more steps, each fed the token its predecessor chose
// on the device. It returns the tokens those predecessors chose, in order;
// the last step's choice stays in the step's Next buffer (argmax reads it).
// Without a device backend, or for k < 2, it is one run.
func (s *Session) chain(first int32, pos, k int) ([]int32, error) {
	if s.batch != nil {
		return s.batchChain(first, pos, k)
	}
	cp, ok := s.e.Backend.(gpu.Copier)
	k = min(k, s.chainLen)
	if !ok || k < 2 {
		return nil, s.run([]int32{first}, pos)
	}
	st, err := s.step(1)
	if err != nil {
		return nil, err
	}
	if s.chosen == nil {
		if s.chosen, err = s.e.Backend.Alloc("chain.chosen", gguf.I32, gpu.Shape4(chainMax)); err != nil {
			return nil, err
		}
	}
	if err := s.run([]int32{first}, pos); err != nil {
		return nil, err
	}
	for j := 1; j < k; j++ {
		if err := cp.CopyBuffer(s.chosen, 4*(j-1), st.Next, 0, 4); err != nil {
			return nil, err
		}
		if err := cp.CopyBuffer(st.Tokens, 0, st.Next, 0, 4); err != nil {
			return nil, err
		}
		if err := st.Program.Run(gpu.Params{Pos: pos + j}); err != nil {
			return nil, fmt.Errorf("chained decode step at position %d: %w", pos+j, err)
		}
	}
	raw := make([]byte, 4*(k-1))
	if err := s.chosen.Read(0, raw); err != nil {
		return nil, err
	}
	ids := make([]int32, k-1)
	for i := range ids {
		ids[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return ids, nil
}
