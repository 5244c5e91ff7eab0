package model

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// moeFFN is one block's mixture-of-experts feed-forward: a router scoring
// every expert per token, a stack of E gated experts of which each token
// uses K, and optionally shared experts every token goes through.
//
//	p = gate(Wrouter · x)                     softmax or sigmoid per expert
//	S = top-K(p + bias)                       the bias only picks, never weighs
//	w = p[S], normalised to sum 1 when asked, times the routed scale
//	y = Σ_{s∈S} w_s · Wdown_s (silu(Wgate_s · x) ⊙ Wup_s · x)  + shared(x)
//
// Selection happens on the device (gpu.Route) and feeds the expert matmuls
// (gpu.MatMulID) directly, so only the chosen experts' weights are read and
// no token ever makes a round trip to the host.
type moeFFN struct {
	router           gpu.Buffer // ffn_gate_inp {D, E}
	bias             gpu.Buffer // exp_probs_b {E}, or nil
	gate, up, down   gpu.Buffer // {D, F, E}, {D, F, E}, {F, D, E}
	gateUp           gpu.Buffer // ffn_gate_up_exps {D, 2F, E} in place of gate and up, or nil
	gateS, upS       gpu.Buffer // per-expert scales {1, E}, or nil
	downS            gpu.Buffer
	shGate, shUp     lin // shared experts {D, Fs}, or none
	shDown           lin // {Fs, D}
	experts, expertW int
}

// routing is how a family turns router logits into expert weights.
type routing struct {
	K      int
	Gating gpu.Gating
	Norm   bool
	Scale  float32
}

// bindMoE binds block l's experts of width ff; shared is the width of the
// shared experts' fused FFN (0: none). The selection bias is bound when the
// file has it.
//
// The experts' gate and up matrices come as two stacks or, from files
// converted with --fuse-gate-up-exps (llama.cpp PR 19139), as one merged
// ffn_gate_up_exps {D, 2F, E} whose rows are each expert's gate rows, then
// its up rows; one product then computes both (see moe). llama.cpp's
// loader (de3ff81) takes the merged stack for deepseek2 and not yet for
// qwen3moe or olmoe; ember takes it for all three.
//
// Per-expert scales `<stack>.scale` {E} are bound where the file has them
// (llama.cpp's loader takes them for split gate and up stacks and the
// down stack; a merged stack has none), and `<stack>.input_scale` accepted
// unapplied (see weights.linear).
func bindMoE(w *weights, l, dim, ff, experts, shared int) moeFFN {
	m := moeFFN{
		router:  w.get(blk(l, "ffn_gate_inp"), dim, experts),
		bias:    w.optional(fmt.Sprintf("blk.%d.exp_probs_b.bias", l), experts),
		experts: experts, expertW: ff,
	}
	stack := func(name string, k, n int) (gpu.Buffer, gpu.Buffer) {
		base := blkName(l, name)
		wt := w.get(base+".weight", k, n, experts)
		s := w.vector(base+".scale", gpu.Shape4(1, experts), experts)
		w.accept(base+".input_scale", experts)
		return wt, s
	}
	if w.has(blk(l, "ffn_gate_up_exps")) {
		m.gateUp = w.get(blk(l, "ffn_gate_up_exps"), dim, 2*ff, experts)
	} else {
		m.gate, m.gateS = stack("ffn_gate_exps", dim, ff)
		m.up, m.upS = stack("ffn_up_exps", dim, ff)
	}
	m.down, m.downS = stack("ffn_down_exps", ff, dim)
	if shared > 0 {
		m.shGate = w.linear(blkName(l, "ffn_gate_shexp"), false, dim, shared)
		m.shUp = w.linear(blkName(l, "ffn_up_shexp"), false, dim, shared)
		m.shDown = w.linear(blkName(l, "ffn_down_shexp"), false, shared, dim)
	}
	return m
}

// gatingFromFile maps llama.cpp's expert_gating_func values onto the
// device's gating functions.
func gatingFromFile(arch string, v int) (gpu.Gating, error) {
	switch v {
	case 1:
		return gpu.GateSoftmax, nil
	case 2:
		return gpu.GateSigmoid, nil
	case 3:
		return gpu.GateSoftmaxTopK, nil
	}
	return 0, fmt.Errorf("%s: expert_gating_func %d is not supported (softmax 1, sigmoid 2, softmax after top-k 3)", arch, v)
}

// moe adds the mixture-of-experts feed-forward of x {D, T}, returning {D, T}.
func (b *builder) moe(x *gpu.Tensor, m *moeFFN, r routing) *gpu.Tensor {
	T := x.Shape[1]
	logits := b.matmul(m.router, x, "ffn_moe_logits")
	b.n++
	ids := b.g.New(fmt.Sprintf("ffn_moe_ids#%d", b.n), gguf.I32, r.K, T)
	weights := b.act("ffn_moe_weights", r.K, T)
	route := &gpu.Route{Logits: logits, IDs: ids, Weights: weights, K: r.K, Gating: r.Gating, Norm: r.Norm, Scale: r.Scale}
	if m.bias != nil {
		route.Bias = b.w(m.bias, "exp_probs_b")
	}
	b.g.Do(route)

	// every chosen expert reads the same input row of its token
	in := b.g.Reshape(x, x.Shape[0], 1, T)
	var g, u *gpu.Tensor
	if m.gateUp != nil {
		// One product for both: each chosen expert's row of 2F values,
		// its gate in the first half, its up in the second, read by the
		// gated unit as two views.
		gu := b.matmulID(m.gateUp, in, ids, "ffn_moe_gate_up")
		F := m.expertW
		st := [4]int{4, 2 * F * 4, 2 * F * r.K * 4, 2 * F * r.K * T * 4}
		g = b.g.View("ffn_moe_gate", gu, 0, gpu.Shape4(F, r.K, T), &st)
		u = b.g.View("ffn_moe_up", gu, F*4, gpu.Shape4(F, r.K, T), &st)
	} else {
		g = b.expertScaled(b.matmulID(m.gate, in, ids, "ffn_moe_gate"), m.gateS, ids, "ffn_moe_gate")
		u = b.expertScaled(b.matmulID(m.up, in, ids, "ffn_moe_up"), m.upS, ids, "ffn_moe_up")
	}
	h := b.act("ffn_moe_act", m.expertW, r.K, T)
	b.g.Do(&gpu.SwiGLU{Gate: g, Up: u, Out: h})
	// The shared experts' gated unit sits beside the chosen experts' and
	// their down product beside the chosen ones' weighted sum, so a backend
	// can take each pair in one dispatch; the sums are the same.
	var sh *gpu.Tensor
	if m.shGate.w != nil {
		sh = b.gatedUnit(x, m.shGate, m.shUp, "ffn_shexp")
	}
	d := b.expertScaled(b.matmulID(m.down, h, ids, "ffn_moe_down"), m.downS, ids, "ffn_moe_down")
	out := b.act("ffn_moe_out", x.Shape[0], T)
	b.g.Do(&gpu.WeightedSum{In: d, Weights: weights, Out: out})
	if sh != nil {
		out = b.add(out, b.ffnLinear(m.shDown, sh, "ffn_shexp.down"))
	}
	return out
}

// matmulID multiplies in {K, S or 1, T} by the experts ids {S, T} picks out
// of w {K, N, E}, giving {N, S, T}.
func (b *builder) matmulID(w gpu.Buffer, in, ids *gpu.Tensor, name string) *gpu.Tensor {
	wt := b.w(w, name)
	out := b.act(name, wt.Shape[1], ids.Shape[0], ids.Shape[1])
	b.g.Do(&gpu.MatMulID{W: wt, In: in, IDs: ids, Out: out})
	return out
}
