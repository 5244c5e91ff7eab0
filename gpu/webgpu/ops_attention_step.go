//go:build cgo || js

package webgpu

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// stepAttention is the run of ops a decode step's attention block makes:
// optional per-head RMSNorms of q and k, the two in-place ropes, the
// cache store and the attention itself.
type stepAttention struct {
	qn, kn *gpu.RMSNorm
	rq, rk *gpu.Rope
	st     *gpu.KVStore
	at     *gpu.Attention
	n      int // ops in the run
}

// stepBindings is how many storage buffers attention_step.wgsl binds.
const stepBindings = 9

// matchStepAttention finds the attention block starting at op, or nil: a
// lone decode token's, or a decode batch's (tokens of different sequences,
// none reading another's new cache row). Every tensor between the ops
// must be read by them alone: the fused kernel keeps q and the new key in
// workgroup memory and never writes them back.
func (c *compiler) matchStepAttention(op gpu.Op) *stepAttention {
	if c.g.Tokens != 1 && !c.g.Independent || c.be.limits.MaxStorageBuffersPerShaderStage < stepBindings {
		return nil
	}
	T := c.g.Tokens
	ops := append([]gpu.Op{op}, c.rest...)
	var s stepAttention
	i := 0
	if n, ok := ops[0].(*gpu.RMSNorm); ok {
		if len(ops) < 2 {
			return nil
		}
		m, ok := ops[1].(*gpu.RMSNorm)
		if !ok {
			return nil
		}
		s.qn, s.kn, i = n, m, 2
	}
	if len(ops) < i+4 {
		return nil
	}
	var ok bool
	if s.rq, ok = ops[i].(*gpu.Rope); !ok {
		return nil
	}
	if s.rk, ok = ops[i+1].(*gpu.Rope); !ok {
		return nil
	}
	if s.st, ok = ops[i+2].(*gpu.KVStore); !ok {
		return nil
	}
	if s.at, ok = ops[i+3].(*gpu.Attention); !ok {
		return nil
	}
	s.n = i + 4
	rq, rk, st, at := s.rq, s.rk, s.st, s.at
	// The ropes rotate q and k in place with one set of angles.
	a, b := *rq, *rk
	a.In, a.Out, b.In, b.Out = nil, nil, nil, nil
	if rq.In != rq.Out || rk.In != rk.Out || a != b {
		return nil
	}
	if st.V == nil || st.CacheV == nil || at.VFromK || at.Q != rq.Out || at.CacheK != st.CacheK || at.CacheV != st.CacheV {
		return nil
	}
	if st.K.Root() != rk.Out.Root() || !st.K.Contiguous() || !rk.Out.Contiguous() || st.K.Elements() != rk.Out.Elements() {
		return nil
	}
	DK, H, HKV, DV := rq.In.Shape[0], rq.In.Shape[1], at.HKV, at.DV
	if rk.In.Shape != gpu.Shape4(DK, HKV, T) || rq.In.Shape != gpu.Shape4(DK, H, T) || st.V.Shape != gpu.Shape4(DV*HKV, T) {
		return nil
	}
	if DK > 640 || DV > 640 || HKV <= 0 || H%HKV != 0 || (at.CacheK.Type == tF16 && (DK%2 != 0 || DV%2 != 0)) {
		return nil
	}
	if s.qn != nil {
		qn, kn := s.qn, s.kn
		if qn.Out != rq.In || kn.Out != rk.In || qn.Weight == nil || kn.Weight == nil ||
			qn.In.Shape != qn.Out.Shape || kn.In.Shape != kn.Out.Shape ||
			qn.Weight.Elements() != DK || kn.Weight.Elements() != DK ||
			qn.In.Type != tF32 || kn.In.Type != tF32 || qn.Weight.Type != tF32 || kn.Weight.Type != tF32 {
			return nil
		}
	}
	for _, t := range []*gpu.Tensor{rq.Out, rk.Out} {
		if t.Kind != gpu.Activation && t.Kind != gpu.View || c.readAfter(t, s.n) {
			return nil
		}
	}
	// A batch too large for one scores scratch takes the separate ops,
	// whose attention goes a group of tokens at a time.
	if T > 1 && !c.scoresFit(c.scoreChunks(at), H, T) {
		return nil
	}
	return &s
}

// readAfter reports whether an op after the next skip ops reads t's
// memory.
func (c *compiler) readAfter(t *gpu.Tensor, skip int) bool {
	if r := t.Root(); r.Kind == gpu.External {
		return true
	}
	for _, op := range c.rest[skip-1:] {
		for _, in := range op.Inputs() {
			if in.Root() == t.Root() {
				return true
			}
		}
	}
	return false
}

// lowerStepAttention lowers a matched attention block into one
// attention_step dispatch after checking each op as its own lowering
// would.
func (c *compiler) lowerStepAttention(s *stepAttention) error {
	at, rq, st := s.at, s.rq, s.st
	if err := c.checkAttention(at); err != nil {
		return err
	}
	if err := c.checkRope(rq); err != nil {
		return err
	}
	q, k := rq.In, s.rk.In
	nq, nk, eq, ek, has := q, q, float32(0), float32(0), false
	if s.qn != nil {
		q, k = s.qn.In, s.kn.In
		nq, nk, eq, ek, has = s.qn.Weight, s.kn.Weight, s.qn.Eps, s.kn.Eps, true
	}
	ls, err := locsOf(q, at.Out, k, st.V, nq, nk)
	if err != nil {
		return err
	}
	sp, sc, chunks, err := c.stepWords(at, rq, ls[0])
	if err != nil {
		return err
	}
	p := attentionStepParams{sp, has, eq, ek, ls[2], ls[3], ls[4], ls[5]}
	c.fused = s.n - 1
	H, T := rq.In.Shape[1], rq.In.Shape[2]
	if err := c.dispatch("attention_step", cacheDecoder(at), p, true, []*gpu.Tensor{q, at.CacheK, at.CacheV, sc, k, st.V, ropeFactors(rq, q), nq, nk}, H*T*sp.Spread); err != nil {
		return err
	}
	return c.attentionValues(at, sc, chunks, ls[1])
}

// stepParams are the words the step kernels share (parts/step_row.wgsl):
// the attention's, the query, the chunks of each score row and the
// workgroups sharing them (scoreSpread), the query's rope.
type stepParams struct {
	attentionParams
	Q      loc
	Chunks int
	Spread int
	ropeParams
}

// attentionStepParams are attention_step.wgsl's words: whether the query
// and key heads are normalised first (Qwen3), with what eps, the step's
// new key and value rows, the norms' weights.
type attentionStepParams struct {
	stepParams
	Norms        bool
	EpsQ, EpsK   float32
	K, V         loc
	NormQ, NormK loc
}

// stepWords are the words the step kernels share for the attention at and
// the query's rope rq, the query at lq. It returns them with the scores'
// scratch and the number of chunks.
func (c *compiler) stepWords(at *gpu.Attention, rq *gpu.Rope, lq loc) (stepParams, *gpu.Tensor, int, error) {
	c.p.needCtx(at.CacheK.Shape[1])
	DK, H, T := at.Q.Shape[0], at.Q.Shape[1], at.Q.Shape[2]
	chunks := c.scoreChunks(at)
	sc := c.scores(chunks, H, T)
	if sc == nil {
		return stepParams{}, nil, 0, fmt.Errorf("attention scores of %d heads and %d tokens over %d positions exceed a storage binding", H, T, c.g.SeqRows(at.CacheK.Shape[1]))
	}
	return stepParams{attentionWords(at, DK, H, T), lq, chunks, scoreSpread(chunks, H*T), ropeWords(rq)}, sc, chunks, nil
}

// ropeFactors is what a rope's frequency factors bind: the factors, or
// absent ones any tensor the kernel will not read.
func ropeFactors(rq *gpu.Rope, absent *gpu.Tensor) *gpu.Tensor {
	if rq.FreqFactors != nil {
		return rq.FreqFactors
	}
	return absent
}
