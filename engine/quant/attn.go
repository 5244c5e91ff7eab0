package quant

import (
	"encoding/binary"
	"fmt"
)

// Attention's products over many cache positions at once: a query's dot
// with every cached key row, and the fold of the value sums' lanes. One
// call does what a loop of DotF16VecH, DotGemm16H or FoldLanes64 calls
// does, with the same bits (the assembly keeps the accumulators in
// registers instead of memory, and takes no call per position).

// ScoresF16 sets out[j] to the dot of q with the half-precision row of
// len(q) values at k[j·stride:], for j < len(out): in DotGemm16H's order
// when lanes is 16 (len(q) a multiple of 16), else in DotF16VecH's.
func ScoresF16(out, q []float32, k []byte, stride, lanes int) {
	d, n := len(q), len(out)
	if n == 0 {
		return
	}
	if (lanes != 16 && lanes != 64) || (lanes == 16 && d%16 != 0) || stride < 2*d || len(k) < (n-1)*stride+2*d {
		panic(fmt.Sprintf("quant: ScoresF16 of %d rows of %d values, %d lanes, stride %d, over %d bytes", n, d, lanes, stride, len(k)))
	}
	if lanes == 16 {
		if d > 0 && useAsm && hasScoresAsm {
			scoresF16GemmAsm(&q[0], &k[0], stride, d, n, &out[0])
			return
		}
		for j := range out {
			out[j] = DotGemm16H(k[j*stride:j*stride+2*d], q)
		}
		return
	}
	np := d &^ 63
	if np > 0 && (!useAsm || !hasScoresAsm) {
		for j := range out {
			out[j] = DotF16VecH(k[j*stride:j*stride+2*d], q)
		}
		return
	}
	// The whole steps (none: their fold is +0, which adds nothing), then
	// the rest one product at a time in float64.
	if np > 0 {
		scoresF16VecAsm(&q[0], &k[0], stride, np, n, &out[0])
	} else {
		clear(out)
	}
	if np == d {
		return
	}
	j0 := 0
	if useAsm && hasScoresAsm && d >= 2 && 8*stride < 1<<31 {
		j0 = n &^ 7
		if j0 > 0 {
			scoresF16TailAsm(&q[0], &k[0], stride, np, d, j0, &out[0])
		}
	}
	for j := j0; j < n; j++ {
		row := k[j*stride:]
		sum := float64(out[j])
		for i := np; i < d; i++ {
			sum += float64(f16Fast(binary.LittleEndian.Uint16(row[2*i:])) * q[i])
		}
		out[j] = float32(sum)
	}
}

// FoldLanes64Cols sets y[i] to FoldLanes64 of column i of a, 64 rows of
// len(y) values each.
func FoldLanes64Cols(y, a []float32) {
	d := len(y)
	if len(a) < 64*d {
		panic(fmt.Sprintf("quant: FoldLanes64Cols of %d columns from %d values", d, len(a)))
	}
	i := 0
	if useAsm && hasScoresAsm && d >= 8 {
		i = d &^ 7
		foldLanes64ColsAsm(&y[0], &a[0], i, d)
	}
	var lanes [64]float32
	for ; i < d; i++ {
		for l := range lanes {
			lanes[l] = a[l*d+i]
		}
		y[i] = FoldLanes64(&lanes)
	}
}
