package quant

// Interleaved Q4_0 kernels (q4_0_interleaved_amd64.s): on 512-bit
// registers with AVX-512 F, BW and VNNI for VPDPBUSD (hasVNNI), or on
// AVX2 alone. Both compute the same bits (q4_0_interleaved_dot.go).

//go:noescape
func q4_0Tile8VNNI(w, tile *byte, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4_0Tile4VNNI(w, tile *byte, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4_0Tile1VNNI(w, tile *byte, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4_0Tile8AVX2(w, tile *byte, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4_0Tile4AVX2(w, tile *byte, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4_0Tile1AVX2(w, tile *byte, nb, ngroups int, out *float32, stride int)

// interleavedSets are the kernel sets this CPU runs, best last.
func interleavedSets() (names []string, sets [][9]interleavedKernel) {
	if hasAVX2() {
		var s [9]interleavedKernel
		s[1], s[4], s[8] = q4_0Tile1AVX2, q4_0Tile4AVX2, q4_0Tile8AVX2
		names, sets = append(names, "avx2"), append(sets, s)
	}
	if hasVNNI() {
		var s [9]interleavedKernel
		s[1], s[4], s[8] = q4_0Tile1VNNI, q4_0Tile4VNNI, q4_0Tile8VNNI
		names, sets = append(names, "avx512vnni"), append(sets, s)
	}
	return names, sets
}
