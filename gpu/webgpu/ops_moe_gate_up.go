//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// moeGateUp is what follows the chosen experts' gate product: their up
// product and SwiGLU, then the shared experts' gate and up products and
// SwiGLU.
type moeGateUp struct {
	*expertPair
	sGate, sUp *gpu.MatMul
	sSw        *gpu.SwiGLU
}

// matchMoEGateUp finds the run after the experts' gate product o, or nil;
// in is o's (rounded) input and parts the bindings its weights need.
func (c *compiler) matchMoEGateUp(o *gpu.MatMulID, in *gpu.Tensor, parts int) *moeGateUp {
	var m moeGateUp
	if m.expertPair = c.expertGateUp(o, in, parts); m.expertPair == nil || !c.moeFits(m.ops+3) {
		return nil
	}
	// the shared gate reads the chosen experts' input row, and so its
	// rounded copy
	first, ok := c.rest[m.ops].(*gpu.MatMul)
	if !ok || first.W.Type != o.W.Type || first.W.Shape[0] != o.W.Shape[0] || !c.boundWhole(first.W) ||
		first.In.Shape != gpu.Shape4(o.W.Shape[0], 1) || roundKeyOf(first.In, 0, 1) != roundKeyOf(o.In, 0, 1) {
		return nil
	}
	if m.sGate, m.sUp, m.sSw = c.gateUpPair(first, c.rest[m.ops+1:], in, 1, 1); m.sSw == nil {
		return nil
	}
	// The products are not written: nothing after may read them.
	if !c.unread(m.ops+4, m.gate, m.up, m.sGate.Out, m.sUp.Out) ||
		!c.writesApart([]*gpu.Tensor{m.sw.Out, m.sSw.Out}, o.W, m.v, m.sGate.W, m.sUp.W, o.In, in, o.IDs) {
		return nil
	}
	return &m
}

// moeGateUpParams are moe_gate_up.wgsl's words: F the chosen experts'
// gated units, NS the shared experts' rows and FS their gated units; for
// moe_gate_up_round, how each is rounded for the down products.
type moeGateUpParams struct {
	expertParams
	ExpertRows, UpRow  int
	F                  loc
	NS                 int
	FS                 loc
	Round, RoundShared roundRows
}

// lowerMoEGateUp adds the moe_gate_up dispatch of a matched run after the
// gate product o; in and li are o's (rounded) input and its location, lid
// the ids'.
func (c *compiler) lowerMoEGateUp(o *gpu.MatMulID, m *moeGateUp, in *gpu.Tensor, li, lid loc, dec string) error {
	K, N, E := o.W.Shape[0], m.n, o.W.Shape[2]
	S, T, NS := o.IDs.Shape[0], o.IDs.Shape[1], m.sGate.W.Shape[1]
	ls, err := locsOf(m.sw.Out, m.sSw.Out)
	if err != nil {
		return err
	}
	p := moeGateUpParams{expertParams: expertParams{K, N, S, T, o.W.Type.RowBytes(K), E, o.In.Shape[1], li, lid},
		ExpertRows: m.expertRows, UpRow: m.upRow, F: ls[0], NS: NS, FS: ls[1]}
	c.fused = m.ops + 3
	ts := []*gpu.Tensor{o.W, in, o.IDs, m.sw.Out, m.sSw.Out, m.v, m.sGate.W, m.sUp.W}
	if c.be.limits.MaxStorageBuffersPerShaderStage >= moeBindings+2 {
		// The down products read the gated units rounded: the kernel
		// rounds them where the chosen experts' can be (the shared
		// experts' too, or a quantize_act does).
		if r := c.roundingProduct(m.sw.Out, ls[0], N, S, T, 1, c.fused); r != nil {
			r.use(c)
			p.Round = r.words()
			shared := c.roundingProduct(m.sSw.Out, ls[1], NS, 1, T, 1, c.fused)
			if shared == nil {
				// no rows: writes nothing; Y bound twice is one binding
				shared = &outputRounding{q: r.q, stride: 1}
			} else {
				shared.use(c)
			}
			p.RoundShared = shared.words()
			return c.dispatch("moe_gate_up_round", dec, p, false, append(ts, r.q, shared.q), N/roundingRows*S*T+NS/roundingRows*T)
		}
	}
	return c.dispatch("moe_gate_up", dec, p, false, ts, rowGroups(N)*S*T+rowGroups(NS)*T)
}
