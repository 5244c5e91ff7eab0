package quant

//go:noescape
func axpyF16NEON(y *float32, a float32, v *byte, n int)

const hasAxpyAsm = true

func axpyF16(y *float32, a float32, v *byte, n int) { axpyF16NEON(y, a, v, n) }

// No rows kernel on arm64: FMAScaledF16Rows calls axpyF16NEON a row.
const hasAxpyRowsAsm = false

func axpyRowsF16(acc *float32, L, D int, sc *float32, v *byte, stride, n int) {}
