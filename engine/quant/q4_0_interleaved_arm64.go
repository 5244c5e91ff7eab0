package quant

// Interleaved Q4_0 kernel (q4_0_interleaved_arm64.s): one for every tile
// size, the tile's token count an argument.

//go:noescape
func q4_0TileNEON(w, tile *byte, nb, ngroups, m int, out *float32, stride int)

func init() {
	for _, m := range []int{1, 4, 8} {
		asmInterleaved[m] = func(w, tile *byte, nb, ngroups int, out *float32, stride int) {
			q4_0TileNEON(w, tile, nb, ngroups, m, out, stride)
		}
	}
}
