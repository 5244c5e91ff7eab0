package quant

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// TestVecDotColsMatchesRows requires the four-column kernels to return
// exactly what their one-column product (colsRows: VecDotRows, Q4_K's
// repacked gemm, or for F32 and F16 llamafile's order) returns column by
// column, with the assembly and with the pure-Go reference, for block
// counts that leave every tail length (for the float types, rows of
// whole and partial 16-value steps) and row counts in and out of eights,
// on random weights and activations.
func TestVecDotColsMatchesRows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 11))
	tested := 0
	for _, ty := range dotTypes {
		if !ColsSupported(ty) {
			continue
		}
		tested++
		bs := ty.BlockSize()
		if bs == 1 {
			// F32 and F16 take steps of 16 values, the rest one column at
			// a time; 2048 is a model's row.
			bs = 16
		}
		for _, nb := range []int{1, 2, 3, 4, 5, 7, 8, 13, 64, 67, 128} {
			n, nrows := nb*bs, 1+r.IntN(19)
			if ty.BlockSize() == 1 && nb%2 == 1 {
				n += 8 // a partial step
			}
			w := quantizedWeights(r, ty, nrows, n)
			var acts, auxs [Cols][]byte
			var got, want, ref [Cols][]float32
			for c := range acts {
				x := make([]float32, n)
				for i := range x {
					x[i] = float32(r.NormFloat64()) * float32(1+c)
				}
				acts[c] = make([]byte, ActBytes(ty, n))
				QuantizeAct(ty, x, acts[c])
				auxs[c] = make([]byte, ColAuxBytes(ty, n))
				// Two calls on either side of a group boundary, as the
				// backend's workers make them.
				half := nb / 2 &^ 3
				ColAux(ty, acts[c], 0, half, auxs[c])
				ColAux(ty, acts[c], half, nb, auxs[c])
				got[c] = make([]float32, nrows)
				want[c] = make([]float32, nrows)
				ref[c] = make([]float32, nrows)
				colsRows(ty)(ty, w, nrows, acts[c], n, want[c])
				withAsm(false, func() { colsRows(ty)(ty, w, nrows, acts[c], n, ref[c]) })
			}
			VecDotCols(ty, w, nrows, acts, auxs, n, got)
			for c := range got {
				for i := range got[c] {
					if math.Float32bits(got[c][i]) != math.Float32bits(want[c][i]) {
						t.Errorf("%s nb=%d column %d row %d: %g, one column at a time %g", ty, nb, c, i, got[c][i], want[c][i])
					}
					if math.Float32bits(got[c][i]) != math.Float32bits(ref[c][i]) {
						t.Errorf("%s nb=%d column %d row %d: %g, pure Go %g", ty, nb, c, i, got[c][i], ref[c][i])
					}
				}
			}
		}
	}
	if tested == 0 {
		t.Skip("no four-column kernels on this CPU (they need AVX-512 VNNI, or AVX2 for F32 and F16)")
	}
}

// TestVecDotColsWithoutKernel checks the fallback: without a four-column
// kernel the call still answers, column by column.
func TestVecDotColsWithoutKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	ty, n, nrows := gguf.Q4_0, 96, 3
	w := quantizedWeights(r, ty, nrows, n)
	var acts, auxs [Cols][]byte
	var got [Cols][]float32
	for c := range acts {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		acts[c] = make([]byte, ActBytes(ty, n))
		QuantizeAct(ty, x, acts[c])
		got[c] = make([]float32, nrows)
	}
	withAsm(false, func() { VecDotCols(ty, w, nrows, acts, auxs, n, got) })
	for c := range got {
		for i := range got[c] {
			want := VecDot(ty, w[i*ty.RowBytes(n):], acts[c], n)
			if got[c][i] != want {
				t.Errorf("column %d row %d: %g, want %g", c, i, got[c][i], want)
			}
		}
	}
}

// TestVecDotColsQ8_0 requires the four-column Q8_0 kernel to return, for
// each column, exactly llama.cpp's order as the pure-Go kernel computes it
// and as VecDotRows does, on raw random blocks (weights over the whole
// int8 range, -128 included; activations within ±127 as QuantizeAct makes
// them; random signed f16 scales) for every block count from 1 to 67 and
// row counts that end the kernel's passes of four rows in each way (a
// pair of rows, an odd row taken one column at a time, both, neither).
func TestVecDotColsQ8_0(t *testing.T) {
	if !ColsSupported(gguf.Q8_0) {
		t.Skip("no four-column Q8_0 kernel on this CPU (it needs AVX-512 VNNI)")
	}
	r := rand.New(rand.NewPCG(8, 0))
	scale := func(b []byte) {
		h := F32ToF16(float32(r.NormFloat64()) * 0.01)
		b[0], b[1] = byte(h), byte(h>>8)
	}
	for nb := 1; nb <= 67; nb++ {
		n := nb * 32
		rowCounts := []int{1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 17}
		nrows := rowCounts[nb%len(rowCounts)]
		w := make([]byte, nrows*nb*34)
		for b := 0; b < nrows*nb; b++ {
			blk := w[34*b : 34*b+34]
			scale(blk)
			for j := range blk[2:] {
				blk[2+j] = byte(r.IntN(256))
			}
		}
		var acts, auxs [Cols][]byte
		var got [Cols][]float32
		for c := range acts {
			acts[c] = make([]byte, ActBytes(gguf.Q8_0, n))
			for b := 0; b < nb; b++ {
				blk := acts[c][q80Bytes*b : q80Bytes*(b+1)]
				scale(blk)
				for j := range blk[2:] {
					blk[2+j] = byte(int8(r.IntN(255) - 127))
				}
			}
			auxs[c] = make([]byte, ColAuxBytes(gguf.Q8_0, n))
			half := nb / 2 &^ 3
			ColAux(gguf.Q8_0, acts[c], 0, half, auxs[c])
			ColAux(gguf.Q8_0, acts[c], half, nb, auxs[c])
			got[c] = make([]float32, nrows)
		}
		VecDotCols(gguf.Q8_0, w, nrows, acts, auxs, n, got)
		for c := range got {
			rows := make([]float32, nrows)
			VecDotRows(gguf.Q8_0, w, nrows, acts[c], n, rows)
			for i, g := range got[c] {
				want := dotQ8_0G(w[i*nb*34:(i+1)*nb*34], acts[c], n)
				if math.Float32bits(g) != math.Float32bits(want) || math.Float32bits(g) != math.Float32bits(rows[i]) {
					t.Errorf("nb=%d column %d row %d: %g, Go reference %g, VecDotRows %g", nb, c, i, g, want, rows[i])
				}
				if want == 0 {
					t.Errorf("nb=%d column %d row %d: zero product, the data is not random enough", nb, c, i)
				}
			}
		}
	}
}
