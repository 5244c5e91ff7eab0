package gpu

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
)

// The GPU backends multiply the numbers the CPU backend multiplies: as
// llama.cpp, it rounds a product's activations to the 8-bit format paired
// with the weights' type (or to their half type) before the product, and
// the GPU kernels round them alike before theirs (WebGPU's and Metal's
// quantize_act), in the modes ActRounding names.

// ActRounding is the rounding of the activations of a product with weights
// of type wt and rows of K values, and the block it works in: mode 0,
// 8-bit blocks of 32 with an f16 scale (Q8_0 and Q8_1, for the 32-value
// block types); mode 1, 8-bit blocks of 256 with an f32 scale (Q8_K, for
// the K-quants); mode 2, f16 (F16 weights); mode 3, none (F32 weights: the
// products read a packed copy). Rows of K that are not whole 8-bit blocks
// are refused.
func ActRounding(wt Type, K int) (mode, block int, err error) {
	mode, block = 0, 32
	switch wt {
	case gguf.F32:
		mode, block = 3, 1
	case gguf.F16:
		mode, block = 2, 32
	case gguf.Q2_K, gguf.Q3_K, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K:
		mode, block = 1, 256
	}
	if K%block != 0 {
		if mode < 2 {
			return 0, 0, fmt.Errorf("rows of %d are not whole blocks of %d activations", K, block)
		}
		block = 1
	}
	return mode, block, nil
}
