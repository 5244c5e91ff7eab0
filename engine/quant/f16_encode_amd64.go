package quant

// hasEncodeF16Asm: VCVTPS2PH comes with F16C, which hasAVX2 requires.
var hasEncodeF16Asm = hasAVX2()

//go:noescape
func encodeF16AVX2(dst *uint16, src *float32, n int)

func encodeF16Asm(dst *uint16, src *float32, n int) { encodeF16AVX2(dst, src, n) }

//go:noescape
func roundF16AVX2(dst, src *float32, n int)

func roundF16Asm(dst, src *float32, n int) { roundF16AVX2(dst, src, n) }
