package quant

//go:noescape
func axpyF16NEON(y *float32, a float32, v *byte, n int)

const hasAxpyAsm = true

func axpyF16(y *float32, a float32, v *byte, n int) { axpyF16NEON(y, a, v, n) }
