package quant

//go:noescape
func axpyF16AVX2(y *float32, a float32, v *byte, n int)

var hasAxpyAsm = hasAVX2()

func axpyF16(y *float32, a float32, v *byte, n int) { axpyF16AVX2(y, a, v, n) }
