package quant

import "github.com/emberllm/ember/engine/gguf"

// NEON kernels (dot_arm64.s, dot_ggml_arm64.s); NEON is part of every
// arm64 CPU Go runs on, so there is nothing to detect but the dotprod
// variants (cpu_arm64.go). Each returns
// exactly what its pure-Go twin in the dispatch tables returns: the rows
// kernels sum in llama.cpp's orders as dot_ggml.go and dot_ggml_k.go
// write them (dotQ2_K, dotQ3_K and dotBF16 in their own), and
// dotQ4_0NEON in the lanes4 order of dotQ4_0 (goDot's Q4_0 kernel).

//go:noescape
func dotQ4_0NEON(w, a *byte, nb int) float32

//go:noescape
func dotQ8_0NEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ8_0Dot(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_0GNEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ5_0NEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_1NEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ5_1NEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ2_KNEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ3_KNEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_KNEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_KGemmNEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_KVecNEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_KDot(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_KGemmDot(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_KVecDot(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ5_KNEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ5_KDot(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ6_KNEON(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ6_KDot(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotBF16NEON(w, a *byte, nb, nrows int, out *float32)

func init() {
	asmDot[gguf.Q4_0] = func(w, a []byte, n int) float32 {
		if n == 0 {
			return 0
		}
		return dotQ4_0NEON(&w[0], &a[0], n/32)
	}
	reg := registerRows
	reg(gguf.Q4_1, dotQ4_1NEON, 32)
	reg(gguf.Q5_0, dotQ5_0NEON, 32)
	reg(gguf.Q5_1, dotQ5_1NEON, 32)
	reg(gguf.Q8_0, dotQ8_0NEON, 32)
	if hasDotprod {
		reg(gguf.Q8_0, dotQ8_0Dot, 32)
	}
	reg(gguf.Q2_K, dotQ2_KNEON, 256)
	reg(gguf.Q3_K, dotQ3_KNEON, 256)
	reg(gguf.Q4_K, dotQ4_KNEON, 256)
	reg(gguf.Q5_K, dotQ5_KNEON, 256)
	reg(gguf.Q6_K, dotQ6_KNEON, 256)
	reg(gguf.BF16, dotBF16NEON, 1)
	asmRepackedGemm[gguf.Q4_K] = rowsKernel{dotQ4_KGemmNEON, 256}
	asmUnrepacked[gguf.Q4_0] = rowsKernel{dotQ4_0GNEON, 32}
	asmUnrepacked[gguf.Q4_K] = rowsKernel{dotQ4_KVecNEON, 256}
	if hasDotprod {
		reg(gguf.Q4_K, dotQ4_KDot, 256)
		reg(gguf.Q5_K, dotQ5_KDot, 256)
		reg(gguf.Q6_K, dotQ6_KDot, 256)
		asmRepackedGemm[gguf.Q4_K] = rowsKernel{dotQ4_KGemmDot, 256}
		asmUnrepacked[gguf.Q4_K] = rowsKernel{dotQ4_KVecDot, 256}
	}
}
