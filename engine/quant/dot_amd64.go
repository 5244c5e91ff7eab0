package quant

import "github.com/emberllm/ember/engine/gguf"

// AVX2 kernels (dot_amd64.s). Each computes nrows consecutive rows (nb
// blocks each, or nb values for the float types) into out, and returns
// exactly what its pure-Go twin returns row by row: the integer part of
// every block is exact in any order, and the float part follows the Go
// code's order.

//go:noescape
func dotQ4_0AVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_1AVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_0GAVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ5_0AVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ5_1AVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ8_0AVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ2_KAVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ3_KAVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_KAVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_KGemmAVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ4_KVecAVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ5_KAVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ6_KAVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotBF16AVX2(w, a *byte, nb, nrows int, out *float32)

func dotCPUID(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func dotXGETBV() (eax uint32)

// hasAVX2 reports AVX2 with F16C and FMA, and an OS that saves the YMM
// registers (XCR0 bits 1 and 2), the way internal/cpu decides it, unless
// ISAEnv holds the kernels to pure Go.
func hasAVX2() bool {
	if isaCap < isaBase {
		return false
	}
	maxLeaf, _, _, _ := dotCPUID(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := dotCPUID(1, 0)
	const fma, osxsave, avx, f16c = 1 << 12, 1 << 27, 1 << 28, 1 << 29
	if ecx1&(fma|osxsave|avx|f16c) != fma|osxsave|avx|f16c {
		return false
	}
	if dotXGETBV()&6 != 6 {
		return false
	}
	_, ebx7, _, _ := dotCPUID(7, 0)
	return ebx7&(1<<5) != 0
}

// Shuffle masks that broadcast one int16 scale across a vector (read by
// the assembly): dotShufW32[j] repeats word j in both 128-bit lanes (one
// scale per 32 values, Q4_K/Q5_K); dotShufW16[c] repeats word 2c in the
// low lane and word 2c+1 in the high one (two scales per 32 values,
// Q2_K/Q3_K/Q6_K, applied to a register holding 8 scales in each lane).
var (
	dotShufW32 [8][32]byte
	dotShufW16 [4][32]byte
)

func init() {
	for j := range dotShufW32 {
		for i := 0; i < 32; i += 2 {
			dotShufW32[j][i], dotShufW32[j][i+1] = byte(2*j), byte(2*j+1)
		}
	}
	for c := range dotShufW16 {
		for i := 0; i < 32; i += 2 {
			w := 2 * c
			if i >= 16 {
				w++
			}
			dotShufW16[c][i], dotShufW16[c][i+1] = byte(2*w), byte(2*w+1)
		}
	}
	if !hasAVX2() {
		return
	}
	reg := registerRows
	reg(gguf.Q4_0, dotQ4_0AVX2, 32)
	reg(gguf.Q4_1, dotQ4_1AVX2, 32)
	reg(gguf.Q5_0, dotQ5_0AVX2, 32)
	reg(gguf.Q5_1, dotQ5_1AVX2, 32)
	reg(gguf.Q8_0, dotQ8_0AVX2, 32)
	reg(gguf.Q2_K, dotQ2_KAVX2, 256)
	reg(gguf.Q3_K, dotQ3_KAVX2, 256)
	reg(gguf.Q4_K, dotQ4_KAVX2, 256)
	asmRepackedGemm[gguf.Q4_K] = rowsKernel{dotQ4_KGemmAVX2, 256}
	asmUnrepacked[gguf.Q4_0] = rowsKernel{dotQ4_0GAVX2, 32}
	asmUnrepacked[gguf.Q4_K] = rowsKernel{dotQ4_KVecAVX2, 256}
	reg(gguf.Q5_K, dotQ5_KAVX2, 256)
	reg(gguf.Q6_K, dotQ6_KAVX2, 256)
	reg(gguf.BF16, dotBF16AVX2, 1)
}

// AVX2 reports whether this CPU runs the package's AVX2 kernels (other
// packages with AVX2 assembly of their own ask here, so the detection is
// written once).
func AVX2() bool { return hasAVX2() }
