package cpu

import (
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// topk fills ids/vals with the k largest of x, largest first, ties broken
// toward the lower index (an element enters only if strictly greater than
// the current k-th, and is placed after every element not smaller).
func topk(x []float32, base int, ids []int32, vals []float32, have int) int {
	k := len(ids)
	for i, v := range x {
		if have == k && !(v > vals[k-1]) {
			continue
		}
		j := min(have, k-1)
		for j > 0 && v > vals[j-1] {
			if j < k {
				vals[j], ids[j] = vals[j-1], ids[j-1]
			}
			j--
		}
		vals[j], ids[j] = v, int32(base+i)
		if have < k {
			have++
		}
	}
	return have
}

func (c *compiler) lowerRoute(o *gpu.Route) error {
	if err := gpu.CheckRoute(o); err != nil {
		return err
	}
	E, T := o.Logits.Shape[0], o.Logits.Shape[1]
	gating, norm, scale := o.Gating, o.Norm, o.Scale
	c.rowKernel("route", T, E*8, refs(o.Logits, o.Bias), refs(o.IDs, o.Weights), func() func(w, i int) {
		lg, ids, wts := c.rows(o.Logits), c.rows(o.IDs), c.rows(o.Weights)
		var bias *rows
		if o.Bias != nil {
			bias = c.rows(o.Bias)
		}
		probs := make([][]float32, c.nth)
		sel := make([][]float32, c.nth)
		for i := range probs {
			probs[i], sel[i] = make([]float32, E), make([]float32, E)
		}
		return func(w, t int) {
			x, pr, s := lg.get(w, t), probs[w], sel[w]
			switch gating {
			case gpu.GateSoftmax:
				softmax(x, pr)
			case gpu.GateSigmoid:
				for i, v := range x {
					pr[i] = 1 / (1 + expLibm(-v)) // ggml's sigmoid op
				}
			default:
				copy(pr, x)
			}
			copy(s, pr)
			if bias != nil {
				b := bias.get(w, 0)
				for i := range s {
					s[i] += b[i]
				}
			}
			id, wt := ids.i32(t), wts.out(t)
			topk(s, 0, id, wt, 0)
			for i, e := range id {
				wt[i] = pr[e]
			}
			if gating == gpu.GateSoftmaxTopK {
				softmax(wt, wt)
			}
			if norm {
				// as llama.cpp: a float64 sum (sum_rows) clamped to the
				// smallest normal half, then a division
				var sum float64
				for _, v := range wt {
					sum += float64(v)
				}
				d := max(float32(sum), 6.103515625e-5)
				for i := range wt {
					wt[i] /= d
				}
			}
			if scale != 0 && scale != 1 {
				for i := range wt {
					wt[i] *= scale
				}
			}
		}
	})
	return nil
}

// softmax writes the softmax of x to y (which may be x) as ggml's
// soft_max op computes it: whole 16-value chunks through quant.ExpGGML, each
// chunk's sum (SumLanes16) and then each remaining value (through
// expLibm) added into a float64, and the values scaled by 1/sum.
func softmax(x, y []float32) {
	m := float32(math.Inf(-1))
	for _, v := range x {
		m = max(m, v)
	}
	var sum float64
	n16 := len(x) &^ 15
	copy(y[:n16], x[:n16])
	expSub(y[:n16], m)
	for i := 0; i < n16; i += 16 {
		sum += float64(quant.SumLanes16((*[16]float32)(y[i : i+16])))
	}
	for i := n16; i < len(x); i++ {
		e := expLibm(x[i] - m)
		y[i] = e
		sum += float64(e)
	}
	inv := float32(1 / sum)
	for i := range y[:len(x)] {
		y[i] *= inv
	}
}

func (c *compiler) lowerWeightedSum(o *gpu.WeightedSum) error {
	for _, e := range []error{wantType(o.In, "In", tF32), wantType(o.Weights, "Weights", tF32), wantType(o.Out, "Out", tF32)} {
		if e != nil {
			return e
		}
	}
	N, S, T := o.In.Shape[0], o.In.Shape[1], o.In.Shape[2]
	if o.In.Shape[3] != 1 {
		return fmt.Errorf("In %s has shape %v, want {N, S, T}", o.In.Name, o.In.Shape)
	}
	if err := wantShape(o.Weights, "Weights", gpu.Shape4(S, T)); err != nil {
		return err
	}
	if err := wantShape(o.Out, "Out", gpu.Shape4(N, T)); err != nil {
		return err
	}
	if err := wantDense(o.Out, "Out"); err != nil {
		return err
	}
	c.rowKernel("weighted_sum", T, N*S, refs(o.In, o.Weights), refs(o.Out), func() func(w, i int) {
		in, wts, out := c.rows(o.In), c.rows(o.Weights), c.rows(o.Out)
		return func(w, t int) {
			y := out.out(t)
			clear(y)
			for s := 0; s < S; s++ {
				a := wts.get(w, t)[s]
				x := in.get(w, s+S*t)
				for n := range y {
					y[n] += float32(a * x[n]) // llama.cpp multiplies, then adds: no fused add on arm64
				}
			}
		}
	})
	return nil
}

// selectSeg is the row length above which argmax and top-k split a row
// across workers and merge the partial results.
const selectSeg = 1 << 14

func (c *compiler) lowerArgmax(o *gpu.Argmax) error {
	if err := wantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tI32); err != nil {
		return err
	}
	V, T := o.In.Shape[0], o.In.Shape[1]
	if o.In.Shape != gpu.Shape4(V, T) {
		return fmt.Errorf("In %s has shape %v, want {V, T}", o.In.Name, o.In.Shape)
	}
	if err := wantShape(o.Out, "Out", gpu.Shape4(T)); err != nil {
		return err
	}
	return c.selectK(o.In, 1, func(t int, ids []int32, _ []float32) {}, refs(o.Out), func() func(t int, ids []int32, vals []float32) {
		out := c.rows(o.Out)
		return func(t int, ids []int32, _ []float32) {
			i32s(out.mem[t*out.st[0]:], 1)[0] = ids[0]
		}
	})
}

func (c *compiler) lowerTopK(o *gpu.TopK) error {
	if err := gpu.CheckTopK(o); err != nil {
		return err
	}
	K := o.K
	return c.selectK(o.In, K, nil, refs(o.IDs, o.Vals), func() func(t int, ids []int32, vals []float32) {
		ir, vr := c.rows(o.IDs), c.rows(o.Vals)
		return func(t int, ids []int32, vals []float32) {
			copy(ir.i32(t), ids)
			copy(vr.out(t), vals)
		}
	})
}

// selectK adds kernels finding the k largest values of each row of in and
// handing them to emit. Long rows are cut into segments searched in
// parallel, then merged by one worker.
func (c *compiler) selectK(in *gpu.Tensor, k int, _ func(int, []int32, []float32), outs []ref, emit func() func(t int, ids []int32, vals []float32)) error {
	V, T := in.Shape[0], in.Shape[1]
	segs := 1
	if V >= 2*selectSeg && c.nth > 1 {
		segs = (V + selectSeg - 1) / selectSeg
	}
	seg := (V + segs - 1) / segs
	// Partial results: per (token, segment) k ids and values.
	pid := make([]int32, T*segs*k)
	pval := make([]float32, T*segs*k)
	pn := make([]int, T*segs)
	priv := c.newPriv()
	search := func(r *rows, w, u int) {
		t, s := u/segs, u%segs
		x := r.get(w, t)
		lo, hi := s*seg, min(V, (s+1)*seg)
		pn[u] = topk(x[lo:hi], lo, pid[u*k:(u+1)*k], pval[u*k:(u+1)*k], 0)
	}
	merge := func(t int, ids []int32, vals []float32) {
		have := 0
		for s := 0; s < segs; s++ {
			u := t*segs + s
			// Segments come in index order, so ties still favour lower ids.
			have = mergeTop(pid[u*k:u*k+pn[u]], pval[u*k:u*k+pn[u]], ids, vals, have)
		}
	}
	if segs == 1 {
		c.rowKernel("select", T, V, refs(in), outs, func() func(w, i int) {
			r, em := c.rows(in), emit()
			return func(w, t int) {
				search(r, w, t)
				em(t, pid[t*k:(t+1)*k], pval[t*k:(t+1)*k])
			}
		})
		return nil
	}
	c.rowKernel("select.search", T*segs, V, refs(in), []ref{{priv: priv}}, func() func(w, i int) {
		r := c.rows(in)
		return func(w, u int) { search(r, w, u) }
	})
	ids, vals := make([]int32, k), make([]float32, k)
	c.add(&kernel{name: "select.merge", serial: true, reads: []ref{{priv: priv}}, writes: outs, build: func() func(int, int) {
		em := emit()
		return func(int, int) {
			for t := 0; t < T; t++ {
				merge(t, ids, vals)
				em(t, ids, vals)
			}
		}
	}})
	return nil
}

// mergeTop inserts candidates (with ids above all earlier ones) into the
// running top list.
func mergeTop(cid []int32, cval []float32, ids []int32, vals []float32, have int) int {
	k := len(ids)
	for i, v := range cval {
		if have == k && !(v > vals[k-1]) {
			continue
		}
		j := min(have, k-1)
		for j > 0 && v > vals[j-1] {
			if j < k {
				vals[j], ids[j] = vals[j-1], ids[j-1]
			}
			j--
		}
		vals[j], ids[j] = v, cid[i]
		if have < k {
			have++
		}
	}
	return have
}
