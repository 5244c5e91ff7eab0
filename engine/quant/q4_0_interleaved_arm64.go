package quant

// Interleaved Q4_0 kernels (q4_0_interleaved_arm64.s): one for every tile
// size, the tile's token count an argument; with dotprod the integer dots
// are SDOT, and with i8mm tiles of 4 and 8 tokens take two tokens at a
// time by SMMLA (one token stays SDOT's).

//go:noescape
func q4_0TileNEON(w, tile *byte, nb, ngroups, m int, out *float32, stride int)

//go:noescape
func q4_0TileDot(w, tile *byte, nb, ngroups, m int, out *float32, stride int)

// q4_0TileMM is the i8mm kernel; m must be even.
//
//go:noescape
func q4_0TileMM(w, tile *byte, nb, ngroups, m int, out *float32, stride int)

// interleavedSets are the kernel sets this CPU runs, best last.
func interleavedSets() (names []string, sets [][9]interleavedKernel) {
	if isaCap < isaBase {
		return nil, nil
	}
	set := func(k func(w, tile *byte, nb, ngroups, m int, out *float32, stride int)) [9]interleavedKernel {
		var s [9]interleavedKernel
		for _, m := range []int{1, 4, 8} {
			s[m] = func(w, tile *byte, nb, ngroups int, out *float32, stride int) {
				k(w, tile, nb, ngroups, m, out, stride)
			}
		}
		return s
	}
	names, sets = []string{"neon"}, [][9]interleavedKernel{set(q4_0TileNEON)}
	if hasDotprod {
		names, sets = append(names, "dotprod"), append(sets, set(q4_0TileDot))
		if hasI8MM {
			mm := set(q4_0TileMM)
			mm[1] = sets[len(sets)-1][1]
			names, sets = append(names, "i8mm"), append(sets, mm)
		}
	}
	return names, sets
}
