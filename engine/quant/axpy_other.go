//go:build !amd64 && !arm64

package quant

const hasAxpyAsm = false

func axpyF16(y *float32, a float32, v *byte, n int) {}

const hasAxpyRowsAsm = false

func axpyRowsF16(acc *float32, L, D int, sc *float32, v *byte, stride, n int) {}
