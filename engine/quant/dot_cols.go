package quant

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/gguf"
)

// Several activation columns at once. A prefill step multiplies every
// weight row by many tokens; a kernel that takes four columns per row
// unpacks each weight block once for all four instead of once per column,
// and on CPUs with AVX-512 VNNI takes each block's integer dot in one
// instruction (F32 and F16 weights: AVX2, each weight load serving four
// columns' multiply-adds). Its results are bit for bit those of the one-column
// product llama.cpp runs for those tokens (colsRows), column by column:
// the integer part of a block is exact, and the float part keeps that
// product's order.
//
// The four-column kernels of the 32-value types read, beside or instead of
// each column's activation, side data made once per column by ColAux (the
// K-quants' Q8_K activations already carry what they need). For Q8_0 it
// is every block's 32 values biased to unsigned bytes (a+128, so that
// VPDPBUSD can take them against the signed weights without a per-column
// sign fix-up) or, where the interleaved AVX2 kernel runs instead (no
// VNNI), their absolute values (its unsigned operand); then every block's
// scale as an f32, so the kernel need not convert an f16 per column and
// block. For Q4_0 it is the terms that do
// not depend on the weights (the activation scale as an f32 and, the
// weights being unsigned nibbles with an offset, the offset times the sum
// of the block's activations), laid out per group of four blocks as int32
// sums[4] then f32 scales[4], the last group padded.

// Cols is the number of activation columns a multi-column kernel takes.
const Cols = 4

// cols4 is what a multi-column kernel reads: each column's activation,
// side data and output (advanced by the kernel as it stores rows).
type cols4 struct {
	act [Cols]*byte
	aux [Cols]*byte
	out [Cols]*float32
}

// asmCols marks the types whose multi-column kernel this CPU can run
// (filled by the architecture's init); colsKernel runs them. The kernels
// are called by name, not through a func value, so that the cols4 a call
// passes stays on the stack (through a func value it escapes, and an
// allocation per call of a few microseconds' work costs a tenth of it).
var asmCols [maxType]bool

// ColsSupported reports whether VecDotCols has a kernel taking four
// columns at once for weight type w on this machine; without one it still
// works, one column at a time.
func ColsSupported(w gguf.TensorType) bool {
	return int(w) < maxType && useAsm && asmCols[w] && !colsOldOrder[w]
}

// colsOldOrder marks four-column kernels that still sum in ember's former
// order while the one-column kernels follow llama.cpp's (dot_ggml.go):
// they are skipped, and a batch is multiplied one column at a time.
var colsOldOrder = [maxType]bool{} // none since Q8_0, Q4_K and Q6_K were redone

// colsRows is the one-column product each column of a type's four-column
// kernel equals. Q4_K's kernel sums in the order of llama.cpp's repacked
// gemm, since prefill takes tokens by fours only where llama.cpp runs
// that gemm (see ColsFor); F32's and F16's in llamafile's (a batch's
// order, VecDotRowsBatch); other types sum as VecDotRows.
func colsRows(w gguf.TensorType) func(w gguf.TensorType, rows []byte, nrows int, act []byte, n int, out []float32) {
	if w == gguf.Q4_K {
		return VecDotRowsRepackedGemm
	}
	if int(w) < maxType && goGemm[w] != nil {
		return VecDotRowsBatch
	}
	return VecDotRows
}

// ColsFor reports whether VecDotCols gives, for tokens taken by fours, the
// sums RowsKernel picks for them against a matrix of rows rows of type w
// when it multiplies tokens tokens (repackable as RowsKernel takes it;
// tokens 1 where llama.cpp takes them one at a time, as its experts): it
// must have a four-column kernel summing in that order.
func ColsFor(w gguf.TensorType, repackable bool, rows, tokens int) bool {
	if !ColsSupported(w) {
		return false
	}
	if w == gguf.Q4_K {
		return repackable && rows%8 == 0 && tokens >= Cols
	}
	if goGemm[w] != nil {
		return tokens > 1 && rows%4 == 0
	}
	return goUnrepacked[w] == nil && goRepackedGemm[w] == nil
}

// ColsAux reports whether a multi-column kernel for weights of type w on
// this machine reads ColAux's side data: VecDotCols' where ColsSupported,
// and for Q8_0 also the interleaved kernels' (VecDotColsQ8_0x4).
func ColsAux(w gguf.TensorType) bool {
	return ColsSupported(w) || w == gguf.Q8_0 && useAsm && (q80x4.cols || q80x4.cols2)
}

// ColAuxBytes is the size of the side data ColAux makes for n values of an
// activation paired with weights of type w (0 when w has no four-column
// kernel).
func ColAuxBytes(w gguf.TensorType, n int) int {
	if !ColsAux(w) || ActType(w) != gguf.Q8_0 {
		return 0
	}
	nb := n / w.BlockSize()
	if w == gguf.Q8_0 {
		return q80AuxBytes * nb
	}
	return (nb + 3) / 4 * 32
}

// ColAux makes the side data of blocks [b0, b1) of one activation row act
// (QuantizeAct's output for all n values) into aux, the row's whole side
// data; b0 must start a group of four blocks.
func ColAux(w gguf.TensorType, act []byte, b0, b1 int, aux []byte) {
	if ColAuxBytes(w, w.BlockSize()) == 0 {
		return
	}
	if w == gguf.Q8_0 {
		// The row's block count, which places the scales after the values.
		nb := len(aux) / q80AuxBytes
		if len(aux)%q80AuxBytes != 0 || b1 > nb {
			panic(fmt.Sprintf("quant: ColAux(%s) of blocks [%d, %d) into %d bytes", w, b0, b1, len(aux)))
		}
		// The AVX2 kernel (no VNNI) takes |a| as its unsigned operand
		// and a itself as the sign source; VNNI takes a+128.
		for b := b0; b < b1; b++ {
			blk := act[q80Bytes*b : q80Bytes*(b+1)]
			u := aux[32*b : 32*(b+1)]
			if q80x4.cols2 {
				for j := range u {
					u[j] = byte(absInt8(int8(blk[2+j])))
				}
			} else {
				for j := range u {
					u[j] = blk[2+j] ^ 0x80
				}
			}
			binary.LittleEndian.PutUint32(aux[32*nb+4*b:], math.Float32bits(f16at(blk, 0)))
		}
		return
	}
	if b0%4 != 0 || len(aux) < (b1+3)/4*32 {
		panic(fmt.Sprintf("quant: ColAux(%s) of blocks [%d, %d) into %d bytes", w, b0, b1, len(aux)))
	}
	// The weights' offset: Q4_0 nibbles are stored as q+8 and taken
	// unsigned, so each block's integer dot loses 8·Σa.
	offset := int32(0)
	if w == gguf.Q4_0 {
		offset = 8
	}
	for b := b0; b < b1; b++ {
		blk := act[q80Bytes*b : q80Bytes*(b+1)]
		var s int32
		for _, q := range blk[2:] {
			s += int32(int8(q))
		}
		g := aux[b/4*32:]
		binary.LittleEndian.PutUint32(g[4*(b%4):], uint32(offset*s))
		binary.LittleEndian.PutUint32(g[16+4*(b%4):], math.Float32bits(f16at(blk, 0)))
	}
}

// VecDotCols computes outs[c][i] = VecDot(w, rows[i*rowBytes:], acts[c], n)
// for nrows consecutive rows and four columns (for Q4_K in the order of
// VecDotRowsRepackedGemm instead, for F32 and F16 in VecDotRowsBatch's);
// auxs are the columns' side data from ColAux (unused without a
// four-column kernel, and by the float kernels).
func VecDotCols(w gguf.TensorType, rows []byte, nrows int, acts, auxs [Cols][]byte, n int, outs [Cols][]float32) {
	if !ColsSupported(w) || nrows == 0 || n == 0 {
		for c := range acts {
			colsRows(w)(w, rows, nrows, acts[c], n, outs[c])
		}
		return
	}
	if goGemm[w] != nil && n%16 != 0 {
		// tinyBLAS declines rows of partial 16-value steps: VecDotRowsBatch
		// then sums as one token alone.
		for c := range acts {
			colsRows(w)(w, rows, nrows, acts[c], n, outs[c])
		}
		return
	}
	checkDot(w, rows, nrows, acts[0], n)
	ab, xb := ActType(w).RowBytes(n), ColAuxBytes(w, n)
	var c4 cols4
	for c := range acts {
		if len(acts[c]) < ab || len(outs[c]) < nrows || len(auxs[c]) < xb {
			panic(fmt.Sprintf("quant: VecDotCols(%s): column %d has %d activation bytes, %d outputs and %d side bytes, want %d, %d and %d",
				w, c, len(acts[c]), len(outs[c]), len(auxs[c]), ab, nrows, xb))
		}
		c4.act[c], c4.out[c] = &acts[c][0], &outs[c][0]
		if xb > 0 {
			c4.aux[c] = &auxs[c][0]
		}
	}
	if w != gguf.Q8_0 {
		colsKernel(w, &rows[0], n/w.BlockSize(), nrows, &c4)
		return
	}
	// The Q8_0 kernel takes rows in pairs; an odd last row goes one
	// column at a time (the same sums).
	if even := nrows &^ 1; even > 0 {
		colsKernel(w, &rows[0], n/32, even, &c4)
	}
	if nrows%2 == 1 {
		last := rows[(nrows-1)*w.RowBytes(n):]
		for c := range acts {
			VecDotRows(w, last, 1, acts[c], n, outs[c][nrows-1:])
		}
	}
}

// q80AuxBytes is the size of a Q8_0 block's side data: 32 biased values
// and an f32 scale.
const q80AuxBytes = 36

// absInt8 is |v|, which for an activation quant (at least -127) fits int8.
func absInt8(v int8) int8 {
	if v < 0 {
		return -v
	}
	return v
}
