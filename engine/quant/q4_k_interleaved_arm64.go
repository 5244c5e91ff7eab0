package quant

// Interleaved Q4_K kernels (q4_k_interleaved_arm64.s): with dotprod, one
// token a call in the gemv or the gemm order (the caller loops over the
// tokens of a run, whose groups stay in cache meanwhile). Without
// dotprod the CPU backend keeps Q4_K in GGUF's layout.

//go:noescape
func q4KDotGemv1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KDotGemm1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

// q4KSets are the interleaved Q4_K kernel sets this CPU runs, best last.
func q4KSets() (names []string, sets []q4KKernels) {
	if !hasDotprod {
		return nil, nil
	}
	var s q4KKernels
	s.gemv[1], s.gemm[1] = q4KDotGemv1, q4KDotGemm1
	return []string{"dotprod"}, []q4KKernels{s}
}
