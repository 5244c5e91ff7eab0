package quant

// Interleaved Q4_K kernels (q4_k_interleaved_amd64.s): sixteen rows a
// register with AVX-512 VNNI (hasVNNI), eight with AVX2; one, two or four
// tokens a call, in the gemv or the gemm order.

//go:noescape
func q4KVNNIGemv1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KVNNIGemv2(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KVNNIGemv4(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KVNNIGemm1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KVNNIGemm2(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KVNNIGemm4(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KAVX2Gemv1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KAVX2Gemv2(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KAVX2Gemm1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4KAVX2Gemm2(w, act *byte, astride, nb, ngroups int, out *float32, stride int)

// q4KSets are the interleaved Q4_K kernel sets this CPU runs, best last.
func q4KSets() (names []string, sets []q4KKernels) {
	if hasAVX2() {
		var s q4KKernels
		s.gemv[1], s.gemv[2] = q4KAVX2Gemv1, q4KAVX2Gemv2
		s.gemm[1], s.gemm[2] = q4KAVX2Gemm1, q4KAVX2Gemm2
		names, sets = append(names, "avx2"), append(sets, s)
	}
	if hasVNNI() {
		var s q4KKernels
		s.gemv[1], s.gemv[2], s.gemv[4] = q4KVNNIGemv1, q4KVNNIGemv2, q4KVNNIGemv4
		s.gemm[1], s.gemm[2], s.gemm[4] = q4KVNNIGemm1, q4KVNNIGemm2, q4KVNNIGemm4
		names, sets = append(names, "avx512vnni"), append(sets, s)
	}
	return names, sets
}
