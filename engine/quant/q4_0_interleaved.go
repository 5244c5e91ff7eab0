package quant

import (
	"encoding/binary"
	"fmt"
)

// Interleaved Q4_0: the layout the CPU backend stores Q4_0 matrices in when
// it copies them at load, as llama.cpp's CPU backend repacks them. Sixteen
// rows are stored side by side, so one 512-bit VPDPBUSD multiplies four
// values of each of the sixteen rows by the same four activations (one
// broadcast dword) and leaves each row's sum in its own lane: no horizontal
// reduction per block, and one unpacked block serves many tokens.
//
// A group of 16 rows is nb group blocks of 288 bytes, one per 32 values:
//
//	d[16] f16                the rows' scales
//	chunk k = 0..3, 64 bytes: row r's Q4_0 bytes qs[4k..4k+3] at 4r
//
// so the low nibbles of chunk k are values 4k..4k+3 of every row and the
// high nibbles values 16+4k..16+4k+3. Groups follow each other; a matrix
// whose row count is a multiple of 8 but not of 16 ends with a group
// padded by zero rows.

// InterleavedRows is the number of rows stored side by side.
const InterleavedRows = 16

const groupBlockBytes = InterleavedRows * 18

// Interleavable reports whether a Q4_0 matrix of nrows rows can be stored
// interleaved: llama.cpp repacks only matrices whose row count is a
// multiple of 8, and keeps the others as they are.
func Interleavable(nrows int) bool { return nrows > 0 && nrows%8 == 0 }

// InterleavedGroups is the number of 16-row groups of nrows rows.
func InterleavedGroups(nrows int) int {
	return (nrows + InterleavedRows - 1) / InterleavedRows
}

// InterleavedQ4_0Bytes is the size of an interleaved Q4_0 matrix of nrows
// rows of n values (padding included).
func InterleavedQ4_0Bytes(nrows, n int) int {
	return InterleavedGroups(nrows) * (n / 32) * groupBlockBytes
}

// InterleaveQ4_0 stores the nrows Q4_0 rows of n values in src (GGUF
// layout) into dst, InterleavedQ4_0Bytes(nrows, n) bytes, interleaved.
func InterleaveQ4_0(dst, src []byte, nrows, n int) {
	nb := n / 32
	if n%32 != 0 || len(src) < nrows*nb*18 || len(dst) != InterleavedQ4_0Bytes(nrows, n) {
		panic(fmt.Sprintf("quant: InterleaveQ4_0 of %d x %d values: %d bytes into %d", nrows, n, len(src), len(dst)))
	}
	ng := InterleavedGroups(nrows)
	if nrows%InterleavedRows != 0 {
		clear(dst[(ng-1)*nb*groupBlockBytes:])
	}
	le := binary.LittleEndian
	for g := 0; g < ng; g++ {
		lanes := min(InterleavedRows, nrows-g*InterleavedRows)
		for b := 0; b < nb; b++ {
			gb := dst[(g*nb+b)*groupBlockBytes:][:groupBlockBytes]
			for r := 0; r < lanes; r++ {
				blk := src[((g*InterleavedRows+r)*nb+b)*18:][:18]
				le.PutUint16(gb[2*r:], le.Uint16(blk))
				for k := 0; k < 4; k++ {
					le.PutUint32(gb[32+64*k+4*r:], le.Uint32(blk[2+4*k:]))
				}
			}
		}
	}
}

// InterleavedQ4_0Row writes row r of an interleaved matrix (n values a
// row) to dst in GGUF's Q4_0 layout, 18 bytes a block.
func InterleavedQ4_0Row(dst, w []byte, n, r int) {
	nb := n / 32
	g, lane := r/InterleavedRows, r%InterleavedRows
	for b := 0; b < nb; b++ {
		gb := w[(g*nb+b)*groupBlockBytes:]
		blk := dst[18*b : 18*b+18]
		copy(blk[:2], gb[2*lane:2*lane+2])
		for k := 0; k < 4; k++ {
			copy(blk[2+4*k:2+4*k+4], gb[32+64*k+4*lane:32+64*k+4*lane+4])
		}
	}
}

// groupScale is the f16 scale of lane r in group block gb.
func groupScale(gb []byte, r int) float32 {
	return f16Fast(binary.LittleEndian.Uint16(gb[2*r:]))
}
