//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// moeDown is what follows the chosen experts' down product: their
// weighted sum, the shared experts' down product, the add of the two and
// the residual add; res is the residual's other operand.
type moeDown struct {
	ws       *gpu.WeightedSum
	sDown    *gpu.MatMul
	sum, add *gpu.Add
	res      *gpu.Tensor
}

// matchMoEDownRounded finds the run after the experts' down product o
// that moe_down_rounded takes, or nil: both down products' inputs rounded
// already, in (o's, at li) and the shared experts', which it returns with
// its location.
func (c *compiler) matchMoEDownRounded(o *gpu.MatMulID, in *gpu.Tensor, parts int) (*moeDown, roundedAct) {
	if !c.be.fuses(fuseRoundingProducts) || o.W.Type == tF32 || in == o.In {
		return nil, roundedAct{}
	}
	m := c.moeDownRun(o, in, parts)
	if m == nil {
		return nil, roundedAct{}
	}
	mode, _, err := roundMode(m.sDown.W.Type, m.sDown.W.Shape[0])
	if err != nil {
		return nil, roundedAct{}
	}
	r, ok := c.rounded[roundKeyOf(m.sDown.In, mode, 1)]
	if !ok {
		return nil, roundedAct{}
	}
	return m, r
}

// moeDownRun matches the run after the experts' down product o that
// moe_down_rounded takes; in is o's rounded input.
func (c *compiler) moeDownRun(o *gpu.MatMulID, in *gpu.Tensor, parts int) *moeDown {
	if !c.moeFits(4) {
		return nil
	}
	var m moeDown
	if m.ws = c.expertSum(o, in, parts); m.ws == nil {
		return nil
	}
	var ok, ok2, ok3 bool
	m.sDown, ok = c.rest[1].(*gpu.MatMul)
	m.sum, ok2 = c.rest[2].(*gpu.Add)
	m.add, ok3 = c.rest[3].(*gpu.Add)
	if !ok || !ok2 || !ok3 {
		return nil
	}
	K, N := o.W.Shape[0], o.W.Shape[1]
	sd, y := m.sDown, m.ws.Out
	if _, _, err := roundMode(o.W.Type, K); err != nil {
		return nil
	}
	if sd.W.Type != o.W.Type || sd.W.Shape != gpu.Shape4(K, N) || !c.boundWhole(sd.W) ||
		sd.In.Type != tF32 || sd.In.Shape != gpu.Shape4(K, 1) || sd.Out.Type != tF32 || sd.Out.Shape != y.Shape {
		return nil
	}
	if !(m.sum.A == y && m.sum.B == sd.Out || m.sum.A == sd.Out && m.sum.B == y) {
		return nil
	}
	switch m.sum.Out {
	case m.add.A:
		m.res = m.add.B
	case m.add.B:
		m.res = m.add.A
	default:
		return nil
	}
	if m.res == m.sum.Out || m.res.Shape != y.Shape || m.add.Out.Shape != y.Shape {
		return nil
	}
	if !c.unread(5, o.Out, y, sd.Out, m.sum.Out) ||
		!c.writesApart([]*gpu.Tensor{m.res, m.add.Out}, o.W, sd.W, o.In, in, sd.In, o.IDs, m.ws.Weights) {
		return nil
	}
	return &m
}

// lowerMoEDownRounded adds the moe_down_rounded dispatch of a matched run
// after the down product o: in and li are o's rounded input and its
// location, shared the shared experts', lid the ids' location.
func (c *compiler) lowerMoEDownRounded(o *gpu.MatMulID, m *moeDown, in *gpu.Tensor, li, lid loc, shared roundedAct, dec string) error {
	N, T := o.W.Shape[1], o.IDs.Shape[1]
	p, err := m.words(o, li, lid, shared.l)
	if err != nil {
		return err
	}
	c.fused = 4
	return c.dispatch("moe_down_rounded", dec, p, false, []*gpu.Tensor{o.W, in, o.IDs, m.ws.Weights, m.res, m.add.Out, m.sDown.W, shared.t}, rowGroups(N)*T)
}

// moeDownParams are moe_down_rounded.wgsl's words: the routing weights,
// the residual, the output and the shared experts' rounded input.
type moeDownParams struct {
	expertParams
	Weights, Res, Out, Shared loc
	Zero                      int
}

// words are moe_down_rounded's words for the down product o (input at li,
// ids at lid), the shared experts' input at ls.
func (m *moeDown) words(o *gpu.MatMulID, li, lid, ls loc) (moeDownParams, error) {
	K, N, E := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	S, T := o.IDs.Shape[0], o.IDs.Shape[1]
	lx, err := locsOf(m.ws.Weights, m.res, m.add.Out)
	if err != nil {
		return moeDownParams{}, err
	}
	return moeDownParams{expertParams: expertParams{K, N, S, T, o.W.Type.RowBytes(K), E, o.In.Shape[1], li, lid}, Weights: lx[0], Res: lx[1], Out: lx[2], Shared: ls}, nil
}
