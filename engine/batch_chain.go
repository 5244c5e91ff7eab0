package engine

import (
	"encoding/binary"
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu"
)

// Chained batch steps: chain.go's device-side chaining for a whole batch.
// Where every token of a decode step is greedy and asks for a chain, and
// no prompt waits for its prefill, the step runs again up to chainSteps
// times, each run fed on the device the tokens the run before chose (one
// copy of the batch's argmax into its tokens), every sequence a position
// further; the chosen tokens come back in one read.

// chainLen is how many chained steps the tokens rs allow: the shortest
// chain any asks for, 1 on a backend without device copies.
func (b *Batch) chainLen(rs []*batchRun) int {
	if _, ok := b.e.Backend.(gpu.Copier); !ok {
		return 1
	}
	k := chainSteps
	for _, r := range rs {
		k = min(k, r.chain)
	}
	return max(k, 1)
}

// startChain submits st k-1 more times after the run with places (the
// tokens of rs first, then padding), feeding each run the argmax of the
// run before; readChain waits for them.
func (b *Batch) startChain(st *model.Step, rs []*batchRun, places []gpu.Place, k int) error {
	if k < 2 {
		return nil
	}
	cp := b.e.Backend.(gpu.Copier)
	B := len(places)
	if b.chosen == nil {
		var err error
		if b.chosen, err = b.e.Backend.Alloc("batch.chosen", gguf.I32, gpu.Shape4(len(b.slots)*chainSteps)); err != nil {
			return err
		}
	}
	for j := 1; j < k; j++ {
		if err := cp.CopyBuffer(b.chosen, 4*B*(j-1), st.Next, 0, 4*B); err != nil {
			return err
		}
		if err := cp.CopyBuffer(st.Tokens, 0, st.Next, 0, 4*B); err != nil {
			return err
		}
		for c := range rs {
			places[c].Pos++
		}
		if err := st.Program.Run(gpu.Params{Places: places}); err != nil {
			return fmt.Errorf("chained batch step %d: %w", j, err)
		}
	}
	return nil
}

// readChain hands each session of rs its tokens of a chain of k steps of
// B tokens (startChain) but the last, which stays in the step's Next,
// where copyOut reads it.
func (b *Batch) readChain(rs []*batchRun, B, k int) error {
	if k < 2 {
		return nil
	}
	raw := make([]byte, 4*B*(k-1))
	if err := b.chosen.Read(0, raw); err != nil {
		return err
	}
	for c, r := range rs {
		for j := range k - 1 {
			r.s.chosenIDs = append(r.s.chosenIDs, int32(binary.LittleEndian.Uint32(raw[4*(j*B+c):])))
		}
	}
	return nil
}
