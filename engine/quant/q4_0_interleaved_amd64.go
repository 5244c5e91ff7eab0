package quant

// Interleaved Q4_0 kernels (q4_0_interleaved_amd64.s) on 512-bit
// registers: AVX-512 F and BW, and VNNI for VPDPBUSD (hasVNNI).

//go:noescape
func q4_0Tile8VNNI(w, tile *byte, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4_0Tile4VNNI(w, tile *byte, nb, ngroups int, out *float32, stride int)

//go:noescape
func q4_0Tile1VNNI(w, tile *byte, nb, ngroups int, out *float32, stride int)

func init() {
	if !hasVNNI() {
		return
	}
	asmInterleaved[8] = q4_0Tile8VNNI
	asmInterleaved[4] = q4_0Tile4VNNI
	asmInterleaved[1] = q4_0Tile1VNNI
}
