package quant

// arm64 features beyond NEON (which every arm64 CPU Go runs on has):
// dotprod (SDOT: four byte products summed into an int32 lane; ARMv8.2,
// every Apple M-series CPU) and i8mm (SMMLA; ARMv8.6, Apple M2 onwards).
// The Q8_0, Q4_K, Q5_K and Q6_K rows kernels and the interleaved Q4_0
// ones have dotprod twins, the interleaved Q4_0 tiles of several tokens
// an i8mm one; interleaved Q4_K has dotprod kernels alone (without
// dotprod the CPU backend keeps Q4_K in GGUF's layout). ISAEnv=avx2
// holds the kernels to plain NEON.
var hasDotprod, hasI8MM = func() (bool, bool) {
	if isaCap < isaMax {
		return false, false
	}
	return arm64Features()
}()
