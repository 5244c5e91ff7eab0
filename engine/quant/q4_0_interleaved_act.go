package quant

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Activations for the interleaved Q4_0 kernels come in tiles of m tokens
// (m is 8, 4 or 1: the kernels' token counts), laid out so that one pointer
// walks a tile block by block and every token's data sits at a constant
// displacement. Block b of a tile is 40·m bytes:
//
//	m × (int32 -8·Σq, f32 d)   each token's offset term and scale
//	m × int8 q[32]             each token's Q8_0 values
//
// The values and d are QuantizeAct's Q8_0 block (d widened from its f16).
// Q4_0 nibbles are taken unsigned (q4+8), so a block's integer dot with the
// activation is Σ nibble·q - 8·Σq: the kernels start each block's sum at
// the offset term.

// TileActBytes is the size of the tiled activations of one token of n
// values; a tile of m tokens is m times that.
func TileActBytes(n int) int { return n / 32 * 40 }

// TileSplit returns the tile sizes, largest first, the kernels take the
// tokens of a product in: eights, then a four, then ones.
func TileSplit(tokens int) []int {
	var s []int
	for ; tokens >= 8; tokens -= 8 {
		s = append(s, 8)
	}
	if tokens >= 4 {
		s = append(s, 4)
		tokens -= 4
	}
	for ; tokens > 0; tokens-- {
		s = append(s, 1)
	}
	return s
}

// QuantizeTileAct quantizes blocks [b0, b1) of x, one token's row, into
// slot t of a tile of m tokens (TileActBytes(len(x))·m bytes).
func QuantizeTileAct(x []float32, b0, b1, m, t int, tile []byte) {
	nb := len(x) / 32
	if len(x)%32 != 0 || b0 < 0 || b1 > nb || t < 0 || t >= m || len(tile) != m*TileActBytes(len(x)) {
		panic(fmt.Sprintf("quant: QuantizeTileAct of blocks [%d, %d) of %d values into slot %d of %d in %d bytes", b0, b1, len(x), t, m, len(tile)))
	}
	var blk [q80Bytes]byte
	for b := b0; b < b1; b++ {
		quantizeActQ8_0(x[32*b:32*b+32], blk[:])
		var s int32
		for _, q := range blk[2:] {
			s += int32(int8(q))
		}
		tb := tile[40*m*b:]
		binary.LittleEndian.PutUint32(tb[8*t:], uint32(-8*s))
		binary.LittleEndian.PutUint32(tb[8*t+4:], math.Float32bits(f16at(blk[:], 0)))
		copy(tb[8*m+32*t:8*m+32*t+32], blk[2:])
	}
}
