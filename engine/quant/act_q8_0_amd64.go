package quant

// hasQuantizeQ8_0Asm: quantizeQ8_0AVX2 needs AVX2 and F16C.
var hasQuantizeQ8_0Asm = hasAVX2()

//go:noescape
func quantizeQ8_0AVX2(dst *byte, src *float32, nb int)

func quantizeQ8_0Asm(dst *byte, src *float32, nb int) { quantizeQ8_0AVX2(dst, src, nb) }
