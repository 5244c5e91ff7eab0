package quant

// EncodeF16 narrows src to binary16 in dst (F32ToF16 of each value): a
// KV cache store of a decode step's keys and values, which one value at a
// time cost more than the step's other small kernels. Where the CPU has
// F16C the conversion is the hardware's, round to nearest even as
// F32ToF16 (llama.cpp converts with the same instruction); a NaN stays a
// NaN but keeps its payload's high bits rather than F32ToF16's one quiet
// NaN.
func EncodeF16(dst []uint16, src []float32) {
	n := len(src)
	dst = dst[:n]
	i := 0
	if useAsm && hasEncodeF16Asm && n >= 8 {
		i = n &^ 7
		encodeF16Asm(&dst[0], &src[0], i)
	}
	for ; i < n; i++ {
		dst[i] = F32ToF16(src[i])
	}
}

// RoundF16 sets dst to src rounded to binary16 and widened back
// (F16ToF32(F32ToF16(v)) of each value, in place when they are the same
// slice): attention's query, which llama.cpp converts to the cache's
// type before the product. The conversions are F16C's where it is.
func RoundF16(dst, src []float32) {
	n := len(src)
	dst = dst[:n]
	i := 0
	if useAsm && hasEncodeF16Asm && n >= 8 {
		i = n &^ 7
		roundF16Asm(&dst[0], &src[0], i)
	}
	for ; i < n; i++ {
		dst[i] = F16ToF32(F32ToF16(src[i]))
	}
}
