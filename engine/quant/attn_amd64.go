package quant

//go:noescape
func scoresF16VecAVX2(q *float32, k *byte, stride, d, n int, out *float32)

//go:noescape
func scoresF16GemmAVX2(q *float32, k *byte, stride, d, n int, out *float32)

//go:noescape
func scoresF16TailAVX2(q *float32, k *byte, stride, i0, d, n int, out *float32)

//go:noescape
func foldLanes64ColsAVX2(y, a *float32, cols, d int)

var hasScoresAsm = hasAVX2()

func scoresF16VecAsm(q *float32, k *byte, stride, d, n int, out *float32) {
	scoresF16VecAVX2(q, k, stride, d, n, out)
}

func scoresF16GemmAsm(q *float32, k *byte, stride, d, n int, out *float32) {
	scoresF16GemmAVX2(q, k, stride, d, n, out)
}

func foldLanes64ColsAsm(y, a *float32, cols, d int) { foldLanes64ColsAVX2(y, a, cols, d) }

func scoresF16TailAsm(q *float32, k *byte, stride, i0, d, n int, out *float32) {
	scoresF16TailAVX2(q, k, stride, i0, d, n, out)
}
