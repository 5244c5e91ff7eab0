package engine

import (
	"sync/atomic"

	"github.com/emberllm/ember/engine/model"
)

// What a session of a Batch keeps besides a session's own state: the
// hooks session.go calls where a session of its own runs its steps.

// batchSlot is a session's place in a batch (nil batch: a session of its
// own).
type batchSlot struct {
	batch *Batch
	base  int // the slot's first cache row
	// topWant is the candidates the next decode run must choose
	// (candidateStep sets it).
	topWant int
	// batchNext and view are the last run's argmax and what session.go
	// reads of the step that ran it (lastRun: its Top).
	batchNext int32
	view      model.Step
	// chosenIDs are the tokens a chain's steps chose, but the last
	chosenIDs []int32
	// busy and rows: whether the session is generating, and the cache
	// rows its sequence holds (BatchStats).
	busy atomic.Bool
	rows atomic.Int64
}

// batchRun runs ids at pos through the session's batch, wanting what
// want says read afterwards, and leaves the results where Logits, argmax
// and sampleCandidates read them.
func (s *Session) batchRun(ids []int32, pos int, want batchWant) error {
	if err := s.batch.run(s, ids, pos, want, 1); err != nil {
		return err
	}
	s.lastRun = &s.view
	return nil
}

// batchDecode runs a decode token: with the candidates candidateStep
// asked for, else the whole logits.
func (s *Session) batchDecode(ids []int32, pos int) error {
	want := batchWant{top: s.topWant, logits: s.topWant == 0}
	s.topWant = 0
	return s.batchRun(ids, pos, want)
}

// batchChain is a greedy chain for a session of a batch: a decode token
// asking for up to k chained steps, which the scheduler runs where every
// token of the step asks for a chain (as many as the shortest asks for, at
// most chainSteps: new requests join between chains). It returns the
// tokens the chain's steps chose but the last, which argmax reads.
func (s *Session) batchChain(first int32, pos, k int) ([]int32, error) {
	s.chosenIDs = s.chosenIDs[:0]
	if err := s.batch.run(s, []int32{first}, pos, batchWant{}, min(k, s.chainLen)); err != nil {
		return nil, err
	}
	s.lastRun = &s.view
	return s.chosenIDs, nil
}

// leave tells the batch this session asks for nothing more for now.
func (s *Session) leave() {
	if s.batch != nil {
		s.batch.leave(s)
	}
}

// sync waits for the device to finish the session's steps. A batch's
// scheduler has waited already (it read the results), and the backend is
// the scheduler's alone: its goroutine is the one that uses it.
func (s *Session) sync() error {
	if s.batch != nil {
		return nil
	}
	return s.e.Backend.Sync()
}
