package engine

import (
	"encoding/binary"
	"math"

	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/gpu"
)

// maxCandidates is the most top logits a sampled decode step chooses on a
// device backend; a sampler needing more (a large top-k) reads the whole
// vocabulary's logits instead.
const maxCandidates = 256

// candidateStep is the decode step whose graph also picks the top logits a
// sampler needs for the history it will sample with, when the backend runs
// apart from the host (a GPU: reading back every logit is then a transfer
// of the vocabulary's size each token) and the sampler can be exact from a
// short list (sample.CandidatesNeeded). Otherwise it is nil.
func (s *Session) candidateStep(smp *sample.Sampler, history int) (*model.Step, error) {
	if _, device := s.e.Backend.(gpu.Copier); !device || !s.candidates {
		return nil, nil
	}
	k := smp.CandidatesNeeded(history)
	if k <= 0 || k > maxCandidates || k >= s.e.Model.Config.Vocab {
		return nil, nil
	}
	// A few sizes rather than one graph per count: more candidates than
	// needed leave the result exact.
	k = min((k+31)&^31, maxCandidates, s.e.Model.Config.Vocab)
	if s.batch != nil {
		// The batch's step chooses them (batchDecode).
		s.topWant = k
		return nil, nil
	}
	if st, ok := s.topSteps[k]; ok {
		return st, nil
	}
	st, err := s.e.Model.NewStepTop(s.cache, 1, k)
	if err != nil {
		return nil, err
	}
	s.topSteps[k] = st
	return st, nil
}

// sampleCandidates samples the last step's token from the candidates its
// graph chose.
func (s *Session) sampleCandidates(smp *sample.Sampler) (int32, error) {
	st := s.lastRun
	if s.batch != nil {
		// copied out by the batch
		return smp.SampleCandidates(s.candIDs, s.candVals, s.history), nil
	}
	// Scratch kept across tokens: this runs once per sampled token.
	if cap(s.candRaw) < 8*st.Top {
		s.candRaw = make([]byte, 8*st.Top)
		s.candIDs = make([]int32, st.Top)
		s.candVals = make([]float32, st.Top)
	}
	raw, ids, vals := s.candRaw[:8*st.Top], s.candIDs[:st.Top], s.candVals[:st.Top]
	if err := st.TopIDs.Read(0, raw[:4*st.Top]); err != nil {
		return 0, err
	}
	if err := st.TopVals.Read(0, raw[4*st.Top:]); err != nil {
		return 0, err
	}
	for i := range ids {
		ids[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
		vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*(st.Top+i):]))
	}
	return smp.SampleCandidates(ids, vals, s.history), nil
}
