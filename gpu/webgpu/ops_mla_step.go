//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// mlaStep is the run of ops a decode step's latent attention makes
// (engine/model/deepseek2.go): the query's rope into the tail of the
// absorbed query, the latent's RMSNorm and the shared key's rope in place
// in the token's cache row, the store of that row and the attention over
// the latent cache, values read from the keys.
type mlaStep struct {
	rq   *gpu.Rope
	norm *gpu.RMSNorm
	rk   *gpu.Rope
	st   *gpu.KVStore
	at   *gpu.Attention
}

// mlaStepBindings is how many storage buffers mla_step.wgsl binds.
const mlaStepBindings = 7

// matchMLAStep finds the latent attention block starting at op, or nil.
// The fused kernel keeps the roped query and the new row in workgroup
// memory and never writes them back, so no op after the run may read
// either.
func (c *compiler) matchMLAStep(op gpu.Op) *mlaStep {
	if c.g.Tokens != 1 || c.be.limits.MaxStorageBuffersPerShaderStage < mlaStepBindings || len(c.rest) < 4 {
		return nil
	}
	var s mlaStep
	var ok bool
	if s.rq, ok = op.(*gpu.Rope); !ok {
		return nil
	}
	if s.norm, ok = c.rest[0].(*gpu.RMSNorm); !ok {
		return nil
	}
	if s.rk, ok = c.rest[1].(*gpu.Rope); !ok {
		return nil
	}
	if s.st, ok = c.rest[2].(*gpu.KVStore); !ok {
		return nil
	}
	if s.at, ok = c.rest[3].(*gpu.Attention); !ok {
		return nil
	}
	rq, norm, rk, st, at := s.rq, s.norm, s.rk, s.st, s.at
	a, b := *rq, *rk
	a.In, a.Out, b.In, b.Out = nil, nil, nil, nil
	if a != b || rk.In != rk.Out || norm.In != norm.Out || norm.Weight == nil {
		return nil
	}
	if st.V != nil || st.CacheV != nil || !at.VFromK || at.HKV != 1 || at.CacheK != st.CacheK {
		return nil
	}
	DK, H, R, rope := at.Q.Shape[0], at.Q.Shape[1], at.DV, rq.Dims
	if R+rope != DK || DK > 640 || at.Q.Shape != gpu.Shape4(DK, H, 1) || rq.In.Shape != gpu.Shape4(rope, H, 1) ||
		rq.Out.Shape != rq.In.Shape || rk.In.Shape != gpu.Shape4(rope, 1, 1) || norm.In.Shape != gpu.Shape4(R, 1, 1) ||
		st.K.Shape != gpu.Shape4(DK, 1) {
		return nil
	}
	for _, t := range []*gpu.Tensor{rq.In, rq.Out, norm.In, norm.Weight, at.Q, st.K} {
		if t.Type != tF32 {
			return nil
		}
	}
	if norm.Weight.Elements() != R || !(norm.Eps >= 0) {
		return nil
	}
	ls, err := locsOf(at.Q, rq.Out, st.K, norm.In, rk.In)
	if err != nil {
		return nil
	}
	// The rope writes the query's tail and the norm and the key's rope
	// rewrite the stored row's two parts: where those views lie is what
	// the kernel assumes.
	lq, lo, lk, ln, lr := ls[0], ls[1], ls[2], ls[3], ls[4]
	if rq.Out.Root() != at.Q.Root() || lo.off != lq.off+uint32(R)*lq.stride[0] || lo.stride[0] != lq.stride[0] || lo.stride[1] != lq.stride[1] {
		return nil
	}
	if norm.In.Root() != st.K.Root() || rk.In.Root() != st.K.Root() || ln.off != lk.off || ln.stride[0] != lk.stride[0] ||
		lr.off != lk.off+uint32(R)*lk.stride[0] || lr.stride[0] != lk.stride[0] {
		return nil
	}
	for _, t := range []*gpu.Tensor{at.Q, st.K} {
		if t.Root().Kind != gpu.Activation || c.readAfter(t, 5) {
			return nil
		}
	}
	return &s
}

// mlaStepParams are mla_step.wgsl's words: the latent length R (a cached
// row's rope part follows it), the latent norm's eps, the query's rope
// part, the step's new row and the latent norm's weight.
type mlaStepParams struct {
	stepParams
	R              int
	Eps            float32
	QueryRope, Row loc
	Norm           loc
}

// lowerMLAStep lowers a matched latent attention block into one mla_step
// dispatch and the value pass, after checking each op as its own
// lowering would.
func (c *compiler) lowerMLAStep(s *mlaStep) error {
	at, rq, norm := s.at, s.rq, s.norm
	if err := c.checkAttention(at); err != nil {
		return err
	}
	if err := c.checkRope(rq); err != nil {
		return err
	}
	if err := c.checkRope(s.rk); err != nil {
		return err
	}
	ls, err := locsOf(at.Q, at.Out, rq.In, s.st.K, norm.Weight)
	if err != nil {
		return err
	}
	sp, sc, chunks, err := c.stepWords(at, rq, ls[0])
	if err != nil {
		return err
	}
	p := mlaStepParams{sp, at.DV, norm.Eps, ls[2], ls[3], ls[4]}
	c.fused = 4
	H := at.Q.Shape[1]
	if err := c.dispatch("mla_step", cacheDecoder(at), p, true, []*gpu.Tensor{at.Q, at.CacheK, sc, rq.In, s.st.K, ropeFactors(rq, rq.In), norm.Weight}, H*sp.Spread); err != nil {
		return err
	}
	return c.attentionValues(at, sc, chunks, ls[1])
}
