//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// Prefill products take matmul_tiled.wgsl: a workgroup multiplies a tile of
// tiledRows weight rows by tiledTokens tokens, reading and decoding each
// weight once per tile of tokens instead of once per token. Decode (one
// token) and short steps keep the matvec, which reads the weights at full
// bandwidth for a single token.
const (
	// tiledRows and tiledTokens are TM and TT of matmul_tiled.wgsl.
	tiledRows   = 64
	tiledTokens = 64
	// tiledFrom is the fewest tokens that take the tiled kernel. A tile
	// costs its 64 columns of arithmetic however few tokens fill it, the
	// matvec a read of the weights per token: on a GPU whose tiles reach
	// 10 to 20 TFLOP/s and whose matvecs read 1 TB/s the two meet between
	// 13 and 25 tokens (an estimate). Devices of less arithmetic per byte
	// (integrated GPUs, software) gain from tiles earlier.
	tiledFrom = 16
)

// tiled reports whether a product of T tokens takes the tiled kernel. A
// decode batch's tokens keep the matvec, which sums each token as a step
// of that token alone does (gpu.Graph.Independent).
func (c *compiler) tiled(T int) bool { return T >= tiledFrom && !c.g.Independent }

// tileGroups is the number of tiled workgroups covering n rows of T tokens
// in each of B batches.
func tileGroups(n, B, T int) int {
	return (n + tiledRows - 1) / tiledRows * ((T + tiledTokens - 1) / tiledTokens) * B
}

// expertGroupsParams are expert_groups.wgsl's words: S slots of T tokens
// choosing among Experts experts by IDs.
type expertGroupsParams struct {
	S, T, Experts int
	IDs           loc
}

// matmulIDTiledParams are matmul_id_tiled.wgsl's words: expertParams's,
// the output, and the byte of W's binding where expert 0's rows start.
type matmulIDTiledParams struct {
	expertParams
	Out  loc
	Base int
}

// maxExpertGroups is the most groups expert_groups.wgsl counts (its
// MAX_GROUPS): the experts and the group of ids out of range.
const maxExpertGroups = 257

// expertGroups returns the list of the (slot, token) pairs of o's ids by
// expert (wgsl/expert_groups.wgsl: the groups' starts, the pairs, and each
// listed place's group): the one an earlier product made of the same ids,
// or a new one, after an expert_groups dispatch.
func (c *compiler) expertGroups(o *gpu.MatMulID, E, S, T int, lid loc) (*gpu.Tensor, error) {
	shape := gpu.Shape4(E + 2 + 2*S*T)
	if g := c.listed[o.IDs]; g != nil && g.Shape == shape {
		return g, nil
	}
	groups := &gpu.Tensor{Name: o.Out.Name + ".groups", Type: tI32, Shape: shape, Kind: gpu.Activation}
	if err := c.dispatch("expert_groups", "", expertGroupsParams{S, T, E, lid}, false, []*gpu.Tensor{o.IDs, groups}, 1); err != nil {
		return nil, err
	}
	c.listed[o.IDs] = groups
	return groups, nil
}

// groupsExperts reports whether a product by expert id over weights w and
// T tokens takes the grouped tiles (lowerMatMulIDTiled) rather than the
// matvecs: a prefill's many tokens (a decode or a batch of sequences has
// too few pairs an expert), all experts in one binding, a contiguous
// weight, and no more experts than expert_groups counts.
func (c *compiler) groupsExperts(w *gpu.Tensor, T int) bool {
	E := w.Shape[2]
	return c.tiled(T) && w.Contiguous() && E+1 <= maxExpertGroups &&
		padded(w.Type.RowBytes(w.Shape[0])*w.Shape[1]*E) <= c.be.bindingLimit()
}

// lowerMatMulIDTiled lowers a prefill's product by expert id as products
// of each expert's (slot, token) pairs, tiled (matmul_id_tiled), after
// expert_groups has listed the pairs by expert: each expert's weights are
// read once per tile of pairs rather than once per pair. It reports false
// where the product takes the matvecs (groupsExperts).
func (c *compiler) lowerMatMulIDTiled(o *gpu.MatMulID, dec string, K, N, E, S, T, Sin int, lid, lo loc) (bool, error) {
	if !c.groupsExperts(o.W, T) {
		return false, nil
	}
	li, err := locOf(o.In)
	if err != nil {
		return false, err
	}
	in, li, err := c.roundActivations(o.In, li, o.W.Type, K, Sin, T, true)
	if err != nil {
		return false, err
	}
	groups, err := c.expertGroups(o, E, S, T, lid)
	if err != nil {
		return false, err
	}
	rb := o.W.Type.RowBytes(K)
	p := matmulIDTiledParams{expertParams{K, N, S, T, rb, E, Sin, li, lid}, lo, 0}
	// Worst case: a group of T pairs (a token chooses an expert once).
	grid := (E + 1) * ((N + tiledRows - 1) / tiledRows) * ((T + tiledTokens - 1) / tiledTokens)
	return true, c.dispatch("matmul_id_tiled", dec, p, false, []*gpu.Tensor{o.W, in, groups, o.Out}, grid)
}
