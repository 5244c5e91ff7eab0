//go:build !amd64

package quant

const hasEncodeF16Asm = false

func encodeF16Asm(dst *uint16, src *float32, n int) { panic("quant: no encodeF16Asm here") }

func roundF16Asm(dst, src *float32, n int) { panic("quant: no roundF16Asm here") }
