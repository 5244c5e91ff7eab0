package quant

import "github.com/emberllm/ember/engine/gguf"

// Four-column kernels (dot_cols_amd64.s) need AVX-512 VNNI on 256-bit
// registers (VPDPBUSD: unsigned bytes times signed bytes, summed by four
// into int32 without saturation; VPDPWSSD: the same for int16 pairs) and
// AVX-512 BW for byte and word operations on the upper sixteen registers.
// The Q8_0 kernel uses the whole 512-bit registers (two weight rows side
// by side), which AVX-512 F provides; on CPUs whose 512-bit units are as
// wide as the registers (Zen 5) that doubles the lanes per instruction.

//go:noescape
func dotColsQ4_0VNNI(w *byte, nb, nrows int, c *cols4)

//go:noescape
func dotColsQ8_0VNNI(w *byte, nb, nrows int, c *cols4)

//go:noescape
func dotColsQ4_KVNNI(w *byte, nb, nrows int, c *cols4)

//go:noescape
func dotColsQ6_KVNNI(w *byte, nb, nrows int, c *cols4)

// hasVNNI reports AVX-512 F, BW, VL and VNNI with the OS saving the opmask
// and upper ZMM state (XCR0 bits 5-7) as well as YMM, unless ISAEnv holds
// the kernels to AVX2.
func hasVNNI() bool {
	if isaCap < isaMax || !hasAVX2() {
		return false
	}
	_, ebx7, ecx7, _ := dotCPUID(7, 0)
	const avx512f, avx512bw, avx512vl, vnni = 1 << 16, 1 << 30, 1 << 31, 1 << 11
	if ebx7&(avx512f|avx512bw|avx512vl) != avx512f|avx512bw|avx512vl || ecx7&vnni == 0 {
		return false
	}
	return dotXGETBV()&0xe6 == 0xe6
}

// Four-column F32 and F16 kernels (dot_cols_float_amd64.s) need AVX2,
// FMA and F16C: llamafile's 16-lane order on two 8-lane registers.

//go:noescape
func dotColsF32AVX2(w *byte, steps, nrows int, c *cols4)

//go:noescape
func dotColsF16AVX2(w *byte, steps, nrows int, c *cols4)

func init() {
	if hasAVX2() {
		asmCols[gguf.F32], asmCols[gguf.F16] = true, true
	}
	if !hasVNNI() {
		return
	}
	for _, t := range []gguf.TensorType{gguf.Q4_0, gguf.Q8_0, gguf.Q4_K, gguf.Q6_K} {
		asmCols[t] = true
	}
}

// colsKernel computes nrows rows of type w against four columns (see
// cols4) with the type's kernel.
func colsKernel(w gguf.TensorType, rows *byte, nb, nrows int, c *cols4) {
	switch w {
	case gguf.Q4_0:
		dotColsQ4_0VNNI(rows, nb, nrows, c)
	case gguf.Q8_0:
		dotColsQ8_0VNNI(rows, nb, nrows, c)
	case gguf.Q4_K:
		dotColsQ4_KVNNI(rows, nb, nrows, c)
	case gguf.Q6_K:
		dotColsQ6_KVNNI(rows, nb, nrows, c)
	case gguf.F32:
		dotColsF32AVX2(rows, nb/16, nrows, c)
	case gguf.F16:
		dotColsF16AVX2(rows, nb/16, nrows, c)
	default:
		panic("quant: no four-column kernel for " + w.String())
	}
}
