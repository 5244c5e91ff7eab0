package quant

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The product of an interleaved Q4_0 matrix with tiled activations. The
// float part follows llama.cpp's repacked Q4_0 kernels (gemm and gemv of
// ggml-cpu's x86 repack.cpp, which run for every product of a repacked
// matrix, one token or many): per row, blocks in order, each block's exact
// integer dot s is converted to float and added as acc = fma(s, dw·da,
// acc), from acc = 0. Every path here, assembly or Go, any tile size,
// computes exactly that, so prefill and decode agree bit for bit.

// interleavedKernel computes ngroups consecutive 16-row groups of nb blocks
// (nb, ngroups >= 1) for one tile, storing token t's outputs of group g at
// out[t·stride+16·g:][:16].
type interleavedKernel func(w, tile *byte, nb, ngroups int, out *float32, stride int)

// asmInterleaved holds the assembly kernels by tile size: the best set
// interleavedSets (the architecture's) gives, none where it gives none.
var asmInterleaved = func() (k [9]interleavedKernel) {
	if _, sets := interleavedSets(); len(sets) > 0 {
		k = sets[len(sets)-1]
	}
	return k
}()

// InterleavedFast reports whether this machine has assembly kernels for
// interleaved Q4_0; without them the products run in pure Go (same
// results, much slower), so the CPU backend only interleaves when it does.
func InterleavedFast() bool {
	return useAsm && asmInterleaved[1] != nil && asmInterleaved[4] != nil && asmInterleaved[8] != nil
}

// InterleavedQ4_0Dot computes rows [16·g0, min(16·g1, nrows)) of the
// interleaved matrix w (nrows rows of n values) for a tile of m tokens
// (QuantizeTileAct): out[t·stride+r] is row r's dot with token t.
func InterleavedQ4_0Dot(w []byte, nrows, n, g0, g1 int, tile []byte, m int, out []float32, stride int) {
	nb := n / 32
	end := min(InterleavedRows*g1, nrows)
	if n%32 != 0 || g0 < 0 || g0 > g1 || g1 > InterleavedGroups(nrows) || (m != 1 && m != 4 && m != 8) ||
		len(w) < InterleavedQ4_0Bytes(nrows, n) || len(tile) != m*TileActBytes(n) || (end > 0 && len(out) < (m-1)*stride+end) {
		panic(fmt.Sprintf("quant: InterleavedQ4_0Dot of groups [%d, %d) of %d x %d values, %d tokens: %d weight, %d tile bytes, %d outputs (stride %d)",
			g0, g1, nrows, n, m, len(w), len(tile), len(out), stride))
	}
	groupRuns(nrows, g0, g1, m, nb == 0, out, stride, func(g, ngroups int, out []float32, stride int) {
		w := w[g*nb*groupBlockBytes:]
		if InterleavedFast() {
			asmInterleaved[m](&w[0], &tile[0], nb, ngroups, &out[0], stride)
			return
		}
		for g := 0; g < ngroups; g++ {
			for t := 0; t < m; t++ {
				interleavedGroupGo(w[g*nb*groupBlockBytes:], tile, nb, m, t, out[t*stride+InterleavedRows*g:][:InterleavedRows])
			}
		}
	})
}

// groupRuns computes groups [g0, g1) of an interleaved matrix of nrows
// rows for m <= 8 tokens, token t's row r at out[t·stride+r], through k,
// which computes ngroups whole groups from group g into out (the groups'
// first row at out[0]): the full groups at once, then a padded last group
// through a buffer, keeping its real rows. With empty rows (no values)
// every output is zero.
func groupRuns(nrows, g0, g1, m int, empty bool, out []float32, stride int, k func(g, ngroups int, out []float32, stride int)) {
	end := min(InterleavedRows*g1, nrows)
	if g0 == g1 {
		return
	}
	if empty {
		for t := 0; t < m; t++ {
			clear(out[t*stride+InterleavedRows*g0 : t*stride+end])
		}
		return
	}
	full := min(g1, nrows/InterleavedRows)
	if g0 < full {
		k(g0, full-g0, out[InterleavedRows*g0:], stride)
	}
	if full < g1 {
		var tmp [8 * InterleavedRows]float32
		k(full, 1, tmp[:], InterleavedRows)
		base := InterleavedRows * full
		for t := 0; t < m; t++ {
			copy(out[t*stride+base:t*stride+end], tmp[t*InterleavedRows:])
		}
	}
}

// interleavedGroupGo computes one group's 16 rows for token t of a tile:
// the pure-Go kernel, fallback and reference for the assembly.
func interleavedGroupGo(w, tile []byte, nb, m, t int, out []float32) {
	var acc [InterleavedRows]float32
	for b := 0; b < nb; b++ {
		gb := w[b*groupBlockBytes : (b+1)*groupBlockBytes]
		tb := tile[40*m*b:]
		bias := int32(binary.LittleEndian.Uint32(tb[8*t:]))
		da := math.Float32frombits(binary.LittleEndian.Uint32(tb[8*t+4:]))
		q := tb[8*m+32*t : 8*m+32*t+32]
		for r := range acc {
			s := bias
			for k := 0; k < 4; k++ {
				for i := 0; i < 4; i++ {
					x := gb[32+64*k+4*r+i]
					s += int32(x&15)*int32(int8(q[4*k+i])) + int32(x>>4)*int32(int8(q[16+4*k+i]))
				}
			}
			acc[r] = FMA32(float32(s), float32(groupScale(gb, r)*da), acc[r])
		}
	}
	copy(out, acc[:])
}
