package quant

//go:noescape
func axpyF16AVX2(y *float32, a float32, v *byte, n int)

var hasAxpyAsm = hasAVX2()

func axpyF16(y *float32, a float32, v *byte, n int) { axpyF16AVX2(y, a, v, n) }

//go:noescape
func axpyRowsF16AVX2(acc *float32, L, D int, sc *float32, v *byte, stride, n int)

var hasAxpyRowsAsm = hasAVX2()

func axpyRowsF16(acc *float32, L, D int, sc *float32, v *byte, stride, n int) {
	axpyRowsF16AVX2(acc, L, D, sc, v, stride, n)
}
