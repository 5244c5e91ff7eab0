package quant

import (
	"encoding/binary"
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
)

// Interleaved Q8_0. llama.cpp does not repack Q8_0 on x86: every row is
// summed by ggml_vec_dot_q8_0_q8_0 (dotQ8_0G), one accumulator of eight
// float lanes whose fused multiply-add each block must wait for. Taking
// four rows at once gives four independent chains and shares each
// activation block, but reading four rows of GGUF's layout side by side
// is four memory streams that jump ahead at every group, which the
// hardware prefetchers of some CPUs (AMD Zen 4 here) follow at half the
// speed of one stream. So a copied Q8_0 matrix whose rows come in fours
// is stored with each group's four rows block by block: for block b of
// rows 4g..4g+3, their four f16 scales (8 bytes), then their four times 32
// quants; then block b+1. One stream, four chains, the four scales widened
// and multiplied by the activation's in one instruction, and every row
// still sums exactly as dotQ8_0G sums it: only the storage changes, never
// an addition.

// q80Group is the number of Q8_0 rows stored side by side.
const q80Group = 4

// InterleavableQ8_0 reports whether a Q8_0 matrix of nrows rows can be
// stored interleaved (whole groups of four rows).
func InterleavableQ8_0(nrows int) bool { return nrows > 0 && nrows%q80Group == 0 }

// InterleavedQ8_0Fast reports whether this machine has the kernels for
// interleaved Q8_0 (an interleaved matrix is only worth storing then).
func InterleavedQ8_0Fast() bool { return useAsm && q80x4.rows }

// InterleaveQ8_0 stores the nrows rows of n values in src (GGUF layout)
// into dst, as large, interleaved; nrows must be a multiple of four. It
// reports whether any quant is -128, which llama.cpp's quantizer never
// writes (it rounds to [-127, 127]) but a file may hold, and which the
// AVX2 multi-column kernel cannot take (ColsQ8_0x4).
func InterleaveQ8_0(dst, src []byte, nrows, n int) (fullRange bool) {
	checkQ8_0x4("InterleaveQ8_0", nrows, n, len(src), len(dst))
	rb, nb := gguf.Q8_0.RowBytes(n), n/32
	for r := 0; r < nrows; r++ {
		g, k := r/q80Group, r%q80Group
		for b := 0; b < nb; b++ {
			blk, x := dst[(g*nb+b)*q80GroupBlock:], src[r*rb+b*34:]
			copy(blk[2*k:2*k+2], x[:2])
			copy(blk[8+32*k:8+32*k+32], x[2:34])
			fullRange = fullRange || hasMinInt8(x[2:34])
		}
	}
	return fullRange
}

// hasMinInt8 reports whether the 32 bytes q hold a 0x80 (-128), eight at a
// time: a word's byte is 0x80 where, xored with 0x80, it is zero.
func hasMinInt8(q []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var found uint64
	for i := 0; i < 32; i += 8 {
		v := binary.LittleEndian.Uint64(q[i:]) ^ highs
		found |= (v - ones) &^ v & highs
	}
	return found != 0
}

// q80GroupBlock is the size of a block of a group of four rows.
const q80GroupBlock = q80Group * 34

// InterleavedQ8_0Row writes row r of the interleaved matrix w (n values a
// row) to dst in GGUF's layout.
func InterleavedQ8_0Row(dst, w []byte, n, r int) {
	nb := n / 32
	g, k := r/q80Group, r%q80Group
	for b := 0; b < nb; b++ {
		blk := w[(g*nb+b)*q80GroupBlock:]
		copy(dst[b*34:b*34+2], blk[2*k:2*k+2])
		copy(dst[b*34+2:b*34+34], blk[8+32*k:8+32*k+32])
	}
}

func checkQ8_0x4(what string, nrows, n, src, dst int) {
	if !InterleavableQ8_0(nrows) || n%32 != 0 || src < nrows*gguf.Q8_0.RowBytes(n) || dst < src {
		panic(fmt.Sprintf("quant: %s of %d rows of %d values (%d bytes into %d): want rows in fours, values in blocks of 32", what, nrows, n, src, dst))
	}
}

// VecDotRowsQ8_0x4 is VecDotRows for an interleaved Q8_0 matrix (w must be
// Q8_0): rows holds whole groups of four rows, nrows a multiple of four.
func VecDotRowsQ8_0x4(w gguf.TensorType, rows []byte, nrows int, act []byte, n int, out []float32) {
	checkDot(w, rows, nrows, act, n)
	if w != gguf.Q8_0 || nrows%q80Group != 0 || len(out) < nrows {
		panic(fmt.Sprintf("quant: VecDotRowsQ8_0x4 of %d %s rows into %d outputs: want Q8_0 rows in fours", nrows, w, len(out)))
	}
	if nrows == 0 {
		return
	}
	if n == 0 {
		clear(out[:nrows])
		return
	}
	if useAsm && q80x4.rows {
		q80x4Rows(&rows[0], &act[0], n/32, nrows, &out[0])
		return
	}
	row := make([]byte, gguf.Q8_0.RowBytes(n))
	for r := range nrows {
		InterleavedQ8_0Row(row, rows, n, r)
		out[r] = dotQ8_0G(row, act, n)
	}
}

// ColsQ8_0x4 reports whether VecDotColsQ8_0x4 has a kernel taking
// several columns at once on this machine for an interleaved matrix that
// holds a -128 quant (fullRange, as InterleaveQ8_0 reported) or not: the
// VNNI four-column kernel takes any; the AVX2 two-column one, whose sign
// trick cannot negate -128, only matrices without. Either reads ColAux's
// side data and sums every column as VecDotRowsQ8_0x4 does.
func ColsQ8_0x4(fullRange bool) bool { return useAsm && (q80x4.cols || q80x4.cols2 && !fullRange) }

// VecDotColsQ8_0x4 is VecDotCols for an interleaved Q8_0 matrix: rows
// holds whole groups of four rows. Without side data (auxs, ColAux) each
// column goes through the rows kernel; with it, the matrix must be one
// ColsQ8_0x4 accepts.
func VecDotColsQ8_0x4(w gguf.TensorType, rows []byte, nrows int, acts, auxs [Cols][]byte, n int, outs [Cols][]float32) {
	if !ColsQ8_0x4(false) || nrows == 0 || n == 0 {
		for c := range acts {
			VecDotRowsQ8_0x4(w, rows, nrows, acts[c], n, outs[c])
		}
		return
	}
	checkDot(w, rows, nrows, acts[0], n)
	if w != gguf.Q8_0 || nrows%q80Group != 0 {
		panic(fmt.Sprintf("quant: VecDotColsQ8_0x4 of %d %s rows: want Q8_0 rows in fours", nrows, w))
	}
	ab, xb := ActType(w).RowBytes(n), ColAuxBytes(w, n)
	side := xb > 0
	for c := range acts {
		if len(acts[c]) < ab || len(outs[c]) < nrows {
			panic(fmt.Sprintf("quant: VecDotColsQ8_0x4: column %d has %d activation bytes and %d outputs, want %d and %d",
				c, len(acts[c]), len(outs[c]), ab, nrows))
		}
		side = side && len(auxs[c]) >= xb
	}
	if !side {
		for c := range acts {
			q80x4Rows(&rows[0], &acts[c][0], n/32, nrows, &outs[c][0])
		}
		return
	}
	if q80x4.cols {
		var c4 cols4
		for c := range acts {
			c4.act[c], c4.aux[c], c4.out[c] = &acts[c][0], &auxs[c][0], &outs[c][0]
		}
		q80x4Cols(&rows[0], n/32, nrows, &c4)
		return
	}
	for c := 0; c < Cols; c += 2 {
		q80x4Cols2(&rows[0], &acts[c][0], &acts[c+1][0], &auxs[c][0], &auxs[c+1][0], n/32, nrows, &outs[c][0], &outs[c+1][0])
	}
}
