package cpu

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"

	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// expertPlan is built at run time from the chosen expert ids: the experts
// in use, and for each the (slot, token) pairs routed to it, so every
// chosen expert's rows are streamed once for all its tokens and the other
// experts are never read.
type expertPlan struct {
	count []int // per expert: pairs routed to it
	start []int // per expert: first pair in pairs
	pairs []int // s + S*t, grouped by expert
	used  []int // experts with pairs, in id order
	chunk int   // rows per unit
	per   int   // units per used expert
}

func (c *compiler) lowerMatMulID(o *gpu.MatMulID) error {
	if err := checkWeight(o.W); err != nil {
		return err
	}
	for _, e := range []error{wantType(o.In, "In", tF32), wantType(o.IDs, "IDs", tI32), wantType(o.Out, "Out", tF32)} {
		if e != nil {
			return e
		}
	}
	K, N, E := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	S, T := o.IDs.Shape[0], o.IDs.Shape[1]
	if o.IDs.Shape != gpu.Shape4(S, T) {
		return fmt.Errorf("IDs %s has shape %v, want {S, T}", o.IDs.Name, o.IDs.Shape)
	}
	Sin := o.In.Shape[1]
	if o.In.Shape != gpu.Shape4(K, Sin, T) || (Sin != S && Sin != 1) {
		return fmt.Errorf("In %s has shape %v, want {%d, %d or 1, %d}", o.In.Name, o.In.Shape, K, S, T)
	}
	if err := wantShape(o.Out, "Out", gpu.Shape4(N, S, T)); err != nil {
		return err
	}
	if err := wantDense(o.Out, "Out"); err != nil {
		return err
	}
	wt := o.W.Type
	// Interleaved Q8_0 experts keep this lowering, with their kernels and
	// row ranges in whole groups of four.
	x4 := isInterleaved(o.W) && wt == gguf.Q8_0
	if isInterleaved(o.W) && !x4 {
		return c.lowerMatMulIDInterleaved(o, K, N, E, S, T, Sin)
	}
	actRef, actFn, auxFn := c.activations(o.In, wt)
	align := 1
	if x4 {
		align = 4
	}
	plan, priv := c.addExpertPlan(o, N, E, S, T, align)
	rb, wst := wt.RowBytes(K), o.W.Stride[2]
	// llama.cpp multiplies by experts one token at a time (vec_dot, or
	// its repacked gemv), whatever the batch.
	dotRows, dotCols := quant.RowsKernel(wt, true, N, 1, 0), quant.VecDotCols
	if x4 {
		dotRows, dotCols = quant.VecDotRowsQ8_0x4, quant.VecDotColsQ8_0x4
	}
	k := &kernel{name: "matmul_id", reads: []ref{{t: o.W}, actRef, {priv: priv}}, writes: refs(o.Out)}
	sp := c.newSplitter()
	k.build = func() func(ith, nth int) {
		wm, act, out := c.mem(o.W), actFn(), c.rows(o.Out)
		var aux func(int) []byte
		// Four tokens at once only where that sums as dotRows does.
		cols := auxFn != nil && quant.ColsFor(wt, true, N, 1)
		if x4 {
			cols = colsQ8_0x4(o.W) && auxFn != nil
		}
		if cols { // both ways need the side data
			aux = auxFn()
		}
		col := func(st int) int { return inColumn(st, S, Sin) }
		return func(int, int) {
			plan.each(sp, N, func(e, r0, r1 int, pairs []int) {
				base := e * wst
				for s := r0; s < r1; s += rowBlock {
					end := min(r1, s+rowBlock)
					if len(pairs) == 1 {
						end = r1
					}
					wrows := wm[base+s*rb : base+end*rb]
					rest := pairs
					// Four of the expert's tokens at a time share each
					// unpacked weight block (prefill).
					for ; cols && len(rest) >= quant.Cols; rest = rest[quant.Cols:] {
						var acts, auxs [quant.Cols][]byte
						var outs [quant.Cols][]float32
						for c, st := range rest[:quant.Cols] {
							acts[c], outs[c] = act(col(st)), out.out(st)[s:end]
							if aux != nil {
								auxs[c] = aux(col(st))
							}
						}
						dotCols(wt, wrows, end-s, acts, auxs, K, outs)
					}
					for _, st := range rest {
						dotRows(wt, wrows, end-s, act(col(st)), K, out.out(st)[s:end])
					}
					s = end - rowBlock
				}
			})
		}
	}
	c.add(k)
	return nil
}

// inColumn is the column of In {K, Sin, T} that pair st (slot s + S·token
// t) reads: its own slot's, or with Sin = 1 the token's only one.
func inColumn(st, S, Sin int) int {
	if Sin == 1 {
		return st / S
	}
	return st%S + Sin*(st/S)
}

// each calls f, for every unit this worker takes through sp, with the
// unit's expert, its rows [r0, r1) of N and the pairs routed to it.
func (plan *expertPlan) each(sp *splitter, N int, f func(e, r0, r1 int, pairs []int)) {
	sp.each(len(plan.used)*plan.per, 1, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			e := plan.used[u/plan.per]
			r0 := u % plan.per * plan.chunk
			f(e, r0, min(N, r0+plan.chunk), plan.pairs[plan.start[e]:plan.start[e]+plan.count[e]])
		}
	})
}

// addExpertPlan adds the serial kernel building, at run time, the plan of
// which (slot, token) pairs go to which expert; units of the product are
// runs of rows, a multiple of align, of one used expert.
func (c *compiler) addExpertPlan(o *gpu.MatMulID, N, E, S, T, align int) (*expertPlan, int) {
	plan := &expertPlan{count: make([]int, E), start: make([]int, E), pairs: make([]int, S*T)}
	priv := c.newPriv()
	nth := c.nth
	p := c.p

	// The plan: one serial pass over the ids.
	c.add(&kernel{name: "matmul_id.plan", serial: true, reads: refs(o.IDs), writes: []ref{{priv: priv}},
		build: func() func(int, int) {
			ids := c.rows(o.IDs)
			return func(int, int) {
				clear(plan.count)
				for t := 0; t < T; t++ {
					for s, e := range ids.i32(t) {
						if e < 0 || int(e) >= E {
							p.fail(fmt.Errorf("matmul_id: expert id %d of slot %d, token %d is outside 0..%d", e, s, t, E-1))
							continue
						}
						plan.count[e]++
					}
				}
				plan.used = plan.used[:0]
				n := 0
				for e, k := range plan.count {
					plan.start[e] = n
					n += k
					if k > 0 {
						plan.used = append(plan.used, e)
					}
				}
				fill := plan.count // reuse as a cursor, restored below
				for t := 0; t < T; t++ {
					for s, e := range ids.i32(t) {
						if e >= 0 && int(e) < E {
							plan.pairs[plan.start[e]] = s + S*t
							plan.start[e]++
						}
					}
				}
				for e := range fill {
					plan.start[e] -= fill[e]
				}
				nu := max(1, len(plan.used))
				plan.chunk = min(N, (chunkFor(N*nu, nth, rowBlock)+align-1)/align*align)
				plan.per = (N + plan.chunk - 1) / plan.chunk
			}
		}})

	return plan, priv
}
