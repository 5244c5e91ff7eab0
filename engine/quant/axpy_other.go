//go:build !amd64 && !arm64

package quant

const hasAxpyAsm = false

func axpyF16(y *float32, a float32, v *byte, n int) {}
