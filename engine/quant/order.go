package quant

import "github.com/emberllm/ember/engine/gguf"

// Order names a summation order of the CPU backend's products, so another
// backend (WebGPU's exact products) can add in the same order and get the
// same bits. RowOrder says which one a product takes.
type Order uint32

const (
	// OrderLanes8: ggml_vec_dot's AVX2 loop. Each block's integer products
	// are summed in eight int32 lanes, each lane accumulated with a fused
	// multiply-add by the block's scale product into its own float lane,
	// the lanes folded with SumLanes8 (dotQ8_0G, dotQ4_0G, dotQ6_KG,
	// dotQ5_KG, dotQ4_KVecG and the Q4_1, Q5_0, Q5_1 twins).
	OrderLanes8 Order = iota
	// OrderTerms4: dotQ4_0, a Q4_0 matrix llama.cpp repacks but this CPU
	// does not interleave: rounded block terms summed in four lanes.
	OrderTerms4
	// OrderChain: interleaved Q4_0, one fused multiply-add per block.
	OrderChain
	// OrderQ4KGemv and OrderQ4KGemm: Q4_K's repacked gemv (dotQ4_KG) and
	// gemm (dotQ4_KGemmG).
	OrderQ4KGemv
	OrderQ4KGemm
	// OrderFloatVec: ggml_vec_dot_f32/f16 (DotF32Vec, DotF16VecH).
	OrderFloatVec
	// OrderFloatGemm: llamafile's tinyBLAS (DotGemm16, DotGemm16H).
	OrderFloatGemm
)

// RowOrder is the order in which the CPU backend sums token t of tokens
// against a matrix of rows rows of n values of type w (repackable and the
// choice of kernel as RowsKernel takes them); interleaved says whether the
// backend stores that matrix interleaved (Q4_0 only).
func RowOrder(w gguf.TensorType, repackable bool, rows, n, tokens, t int, interleaved bool) Order {
	repacked := repackable && rows%8 == 0
	switch w {
	case gguf.F32, gguf.F16:
		if tokens > 1 && rows%4 == 0 && n%16 == 0 {
			return OrderFloatGemm
		}
		return OrderFloatVec
	case gguf.Q4_0:
		switch {
		case interleaved:
			return OrderChain
		case repacked:
			return OrderTerms4
		}
	case gguf.Q4_K:
		switch {
		case !repacked:
			return OrderLanes8
		case t < tokens&^3:
			return OrderQ4KGemm
		}
		return OrderQ4KGemv
	}
	return OrderLanes8
}
