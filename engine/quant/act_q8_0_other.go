//go:build !amd64

package quant

const hasQuantizeQ8_0Asm = false

func quantizeQ8_0Asm(dst *byte, src *float32, nb int) { panic("quant: no quantizeQ8_0Asm here") }
