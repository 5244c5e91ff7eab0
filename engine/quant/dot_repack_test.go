package quant

import (
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// TestRepackedGemmAsmMatchesGo holds the assembly of the repacked-gemm
// order (Q4_K) to its Go kernel bit for bit.
func TestRepackedGemmAsmMatchesGo(t *testing.T) {
	asmMatchesGo(t, &asmRepackedGemm, &goRepackedGemm, gguf.Q4_K)
}

// TestUnrepackedAsmMatchesGo does the same for the orders of matrices
// llama.cpp does not repack (vec_dot's, Q4_0 and Q4_K).
func TestUnrepackedAsmMatchesGo(t *testing.T) {
	asmMatchesGo(t, &asmUnrepacked, &goUnrepacked, gguf.Q4_0)
}

// asmMatchesGo compares every assembly kernel of asm with its Go twin in
// gos on random rows of every length; probe is a type whose assembly this
// machine has when it has any.
func asmMatchesGo(t *testing.T, asm *[maxType]rowsKernel, gos *[maxType]dotKernel, probe gguf.TensorType) {
	n := 0
	for seed := uint64(10); seed < 13; seed++ {
		for _, c := range makeDotCases(seed) {
			r := asm[c.t]
			if r.k == nil || c.n == 0 {
				continue
			}
			rb := c.t.RowBytes(c.n)
			out := make([]float32, c.nrows)
			r.k(&c.w[0], &c.act[0], c.n/r.bs, c.nrows, &out[0])
			for i := range out {
				g := gos[c.t](c.w[i*rb:(i+1)*rb], c.act, c.n)
				if math.Float32bits(g) != math.Float32bits(out[i]) {
					t.Errorf("%s n=%d row %d: asm %g != go %g", c.t, c.n, i, out[i], g)
				}
				n++
			}
		}
	}
	if asm[probe].k == nil {
		t.Skip("no assembly on this machine")
	}
	t.Logf("%d rows bitwise equal", n)
}

// TestRowsAsmMatchesGo holds the multi-row assembly kernels (VecDotRows)
// to goDot row by row, bit for bit.
func TestRowsAsmMatchesGo(t *testing.T) {
	asmMatchesGo(t, &asmRows, &goDot, gguf.Q8_0)
}
