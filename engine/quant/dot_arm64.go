package quant

import "github.com/emberllm/ember/engine/gguf"

// NEON kernels (dot_arm64.s); NEON is part of every arm64 CPU Go runs on,
// so there is nothing to detect. Each returns exactly what its pure-Go twin
// returns. Q8_0, Q4_K and Q6_K have none for now: their Go kernels follow
// llama.cpp's x86 summation order (dot_ggml.go), which the former NEON
// kernels did not; they are to be rewritten in that order.

//go:noescape
func dotQ4_0NEON(w, a *byte, nb int) float32

func init() {
	blocks := func(k func(w, a *byte, nb int) float32, bs int) dotKernel {
		return func(w, a []byte, n int) float32 {
			if n == 0 {
				return 0
			}
			return k(&w[0], &a[0], n/bs)
		}
	}
	asmDot[gguf.Q4_0] = blocks(dotQ4_0NEON, 32)
}
