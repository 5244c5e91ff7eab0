package quant

import "math"

// ExpGGML is llama.cpp's vectorised expf as its AVX-512 CPU build runs it
// (ggml_v_expf: ARM's optimized-routines polynomial, fused multiply-adds,
// vscalefps), one lane at a time. Softmax and SiLU go through it there, so
// using the same approximation (not a more accurate exp) keeps ember's
// attention weights and feed-forward activations bit-identical to
// llama.cpp's; its error is under 2 ulp. Here beside FMA32 so that the
// other backends' exact-mode tests can compute what the CPU backend does.
func ExpGGML(x float32) float32 {
	const r = 0x1.8p23
	z := FMA32(x, 0x1.715476p+0, r)
	n := z - r
	b := FMA32(-n, 0x1.7f7d1cp-20, FMA32(-n, 0x1.62e4p-1, x))
	if n > 192 || n < -192 {
		if n <= 0 {
			return 0
		}
		return float32(math.Inf(1))
	}
	if x != x {
		return x
	}
	u := b * b
	j := FMA32(
		FMA32(FMA32(0x1.0e4020p-7, b, 0x1.573e2ep-5), u, FMA32(0x1.555e66p-3, b, 0x1.fffdb6p-2)),
		u, FMA32(0x1.ffffecp-1, b, 1))
	// vscalefps: j·2^n rounded once (exact in float64, then to float32,
	// which also rounds subnormal results the way the instruction does).
	return float32(math.Ldexp(float64(j), int(n)))
}
