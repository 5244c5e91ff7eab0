package cpu

import (
	"math"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
)

// Attention arithmetic in llama.cpp's order (its CPU path without flash
// attention): scores are a matrix product of the cache and the query
// rounded to the cache type, softmax uses ggml's vectorised exp and sums
// 16-value chunks into a float64, and the weights, rounded to the value
// cache type, multiply the values as another matrix product, summing over
// positions. Both products follow ggml's summation order: a single token
// goes through ggml_vec_dot_f16 (orderVec), a batch through llamafile's
// tinyBLAS (orderGemm). Matching the order matters: the F16 roundings
// turn one-ulp differences into visible ones.

type sumOrder uint8

const (
	orderVec  sumOrder = iota // four 16-lane accumulators over steps of 64
	orderGemm                 // one 16-lane accumulator
)

// lanes is the accumulator width of an order.
func (o sumOrder) lanes() int {
	if o == orderVec {
		return 64
	}
	return 16
}

type attnScratch struct {
	order sumOrder
	q     []float32 // the rounded query
	sc    []float32 // scores, then weights, per position
	acc   []float32 // value sums: lanes() accumulators per output value
}

func newAttnScratch(ctx, dk, dv int, order sumOrder) *attnScratch {
	return &attnScratch{order: order, q: make([]float32, dk),
		sc: make([]float32, ctx+16), acc: make([]float32, dv*order.lanes())}
}

// query keeps x, rounded to F16 when the cache is F16 (ggml converts the
// query to the cache type before the product).
func (w *attnScratch) query(x []float32, f16 bool) {
	if f16 {
		quant.RoundF16(w.q[:len(x)], x)
		return
	}
	copy(w.q, x)
}

// scores sets the first n scores to scale times the dots of the query
// with the cache rows at k, stride bytes apart. F16 rows are widened
// inside the products' multiply-adds (exactly, as a table would).
func (w *attnScratch) scores(n int, k []byte, stride int, t gguf.TensorType, scale float32) {
	d := len(w.q)
	gemm := w.order == orderGemm && d%16 == 0
	sc := w.sc[:n]
	if t == tF16 {
		lanes := 64
		if gemm {
			lanes = 16
		}
		quant.ScoresF16(sc, w.q, k, stride, lanes)
		for j := range sc {
			sc[j] *= scale
		}
		return
	}
	for j := range sc {
		row := f32s(k[j*stride:], d)
		if gemm {
			sc[j] = quant.DotGemm16(row, w.q) * scale
		} else {
			sc[j] = quant.DotF16Vec(row, w.q) * scale
		}
	}
}

// softmax turns the first n scores into weights as ggml_vec_soft_max_f32
// and the following scale do, then rounds them to F16 for an F16 cache.
func (w *attnScratch) softmax(n int, f16 bool) {
	sc := w.sc
	m := float32(math.Inf(-1))
	for _, s := range sc[:n] {
		m = max(m, s)
	}
	expSub(sc[:n], m)
	var sum float64
	for j0 := 0; j0 < n; j0 += 16 {
		var chunk [16]float32
		copy(chunk[:], sc[j0:min(n, j0+16)])
		sum += float64(quant.SumLanes16(&chunk))
	}
	inv := float32(1 / sum)
	for j := range sc[:n] {
		sc[j] *= inv
	}
	if f16 {
		quant.RoundF16(sc[:n], sc[:n])
	}
}

// weighted writes y[d] = Σ_j weight_j·value_j[d] over the first n
// positions, position j's value row at byte j·stride of v, going to
// summation lane j % lanes as in ggml's product over the transposed value
// cache. Each lane is a row of acc, so a position is one fused
// multiply-add of a value row into a lane row (an F16 cache's rows in one
// call: FMAScaledF16Rows).
func (w *attnScratch) weighted(y []float32, n int, v []byte, stride int, t gguf.TensorType) {
	L, D := w.order.lanes(), len(y)
	acc := w.acc[:L*D]
	clear(acc)
	if t == tF16 {
		quant.FMAScaledF16Rows(acc, L, D, w.sc, v, stride, n)
	} else {
		for j := 0; j < n; j++ {
			lane := acc[j%L*D : (j%L+1)*D]
			for d, x := range f32s(v[j*stride:], D) {
				lane[d] = quant.FMA32(w.sc[j], x, lane[d])
			}
		}
	}
	if L == 16 {
		quant.SumLanes16Cols(y, acc)
		return
	}
	quant.FoldLanes64Cols(y, acc)
}
