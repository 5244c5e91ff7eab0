//go:build !amd64

package quant

// No attention assembly off amd64: ScoresF16 and FoldLanes64Cols take
// their Go loops.
const hasScoresAsm = false

func scoresF16VecAsm(q *float32, k *byte, stride, d, n int, out *float32) {
	panic("quant: no attention assembly")
}

func scoresF16GemmAsm(q *float32, k *byte, stride, d, n int, out *float32) {
	panic("quant: no attention assembly")
}

func foldLanes64ColsAsm(y, a *float32, cols, d int) { panic("quant: no attention assembly") }

func scoresF16TailAsm(q *float32, k *byte, stride, i0, d, n int, out *float32) {
	panic("quant: no attention assembly")
}
