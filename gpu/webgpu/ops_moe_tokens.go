//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// expertTokensParams are matmul_id_tokens.wgsl's words: expertParams's and
// the output.
type expertTokensParams struct {
	expertParams
	Out loc
}

// groupsBatchExperts reports whether a decode batch's product by expert id
// over weights w (bound in parts bindings), S slots of T tokens, takes
// matmul_id_tokens: the tokens of independent sequences (a prefill takes
// the tiles), at least as many pairs as experts, weights whose parts the
// batch products decode once for several tokens (splitsDecode), all
// experts in one binding, and no more experts than expert_groups counts.
// With fewer pairs than experts a run is mostly one pair, and the list
// costs a dispatch for nothing: GLM's serving at 4 streams (16 pairs, 64
// experts) lost 2% to it, gained 2% at 16 and 28% at 64 (bench/JOURNAL.md).
func (c *compiler) groupsBatchExperts(w *gpu.Tensor, S, T, parts int) bool {
	E := w.Shape[2]
	return c.g.Independent && T > 1 && S*T >= E && splitsDecode(w.Type) && parts == 1 && w.Contiguous() &&
		E+1 <= maxExpertGroups
}

// lowerMatMulIDTokens lowers a decode batch's product by expert id o as
// products of each expert's (slot, token) pairs, TOKENS pairs a workgroup,
// after expert_groups has listed the pairs by expert: each chosen expert's
// rows are read once for several of the batch's tokens, where the matvecs
// by expert id read them once a pair, and every pair's sums stay the
// matvec's (the texts of a batch are those of its sequences alone). With
// the up product and SwiGLU after it (expertGateUp), the three in one
// dispatch. in and li are o's rounded input and its location, lid and lo
// the ids' and the output's. It reports false where the product keeps the
// matvecs (groupsBatchExperts).
func (c *compiler) lowerMatMulIDTokens(o *gpu.MatMulID, in *gpu.Tensor, dec string, li, lid, lo loc, parts int) (bool, error) {
	K, N, E := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	S, T, Sin := o.IDs.Shape[0], o.IDs.Shape[1], o.In.Shape[1]
	if !c.groupsBatchExperts(o.W, S, T, parts) {
		return false, nil
	}
	pr := c.expertGateUp(o, in, parts)
	groups, err := c.expertGroups(o, E, S, T, lid)
	if err != nil {
		return false, err
	}
	rb := o.W.Type.RowBytes(K)
	// A workgroup for each batchRows rows and listed place: the places that
	// start no run leave at once.
	grid := func(n int) int { return (n + batchRows - 1) / batchRows * S * T }
	if pr != nil {
		ls, err := locsOf(pr.gate, pr.up, pr.sw.Out)
		if err != nil {
			return false, err
		}
		p := expertGateUpParams{expertParams{K, pr.n, S, T, rb, E, Sin, li, lid}, ls[0], ls[1], ls[2], pr.expertRows, pr.upRow}
		c.fused = pr.ops
		return true, c.dispatch("matmul_id_tokens_gate_up", dec, p, false,
			[]*gpu.Tensor{o.W, in, groups, pr.gate, pr.up, pr.sw.Out, pr.v}, grid(pr.n))
	}
	p := expertTokensParams{expertParams{K, N, S, T, rb, E, Sin, li, lid}, lo}
	return true, c.dispatch("matmul_id_tokens", dec, p, false, []*gpu.Tensor{o.W, in, groups, o.Out}, grid(N))
}
