package quant

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// Interleaving Q8_0 moves bytes only: every row comes back as it was.
func TestInterleaveQ8_0RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	const nrows, n = 12, 96
	src := randWeights(r, gguf.Q8_0, nrows, n)
	dst := make([]byte, len(src))
	InterleaveQ8_0(dst, src, nrows, n)
	if bytes.Equal(dst, src) {
		t.Fatal("interleaving left the layout as it was")
	}
	rb := gguf.Q8_0.RowBytes(n)
	row := make([]byte, rb)
	for i := range nrows {
		InterleavedQ8_0Row(row, dst, n, i)
		if !bytes.Equal(row, src[i*rb:(i+1)*rb]) {
			t.Fatalf("row %d differs after the round trip", i)
		}
	}
}

// The interleaved products give dotQ8_0G's bits, row by row, for every
// kernel this CPU has (the AVX2 and VNNI rows kernels, the VNNI
// four-column and AVX2 two-column ones) and the pure-Go path: on random
// weight bytes (every int8, -128 included: the AVX2 two-column kernel
// declines them) and on quantized floats, one to three groups.
func TestInterleavedQ8_0Dot(t *testing.T) {
	type rowsFn func(w, a *byte, nb, nrows int, out *float32)
	kernels := map[string]rowsFn{}
	if q80x4.rows {
		kernels["avx2"] = q80x4RowsAVX2()
	}
	if q80x4.vnni {
		kernels["vnni"] = q80x4RowsVNNI()
	}
	r := rand.New(rand.NewPCG(27, 2))
	checked := 0
	for _, n := range []int{32, 160, 2048} {
		for _, nrows := range []int{4, 8, 12} {
			for _, quantized := range []bool{false, true} {
				w := randWeights(r, gguf.Q8_0, nrows, n)
				if quantized {
					w = quantizedWeights(r, gguf.Q8_0, nrows, n)
				}
				iw := make([]byte, len(w))
				full := InterleaveQ8_0(iw, w, nrows, n)
				var acts, auxs [Cols][]byte
				for c := range acts {
					acts[c] = make([]byte, ActType(gguf.Q8_0).RowBytes(n))
					QuantizeAct(gguf.Q8_0, randActivation(r, n), acts[c])
					auxs[c] = make([]byte, ColAuxBytes(gguf.Q8_0, n))
					ColAux(gguf.Q8_0, acts[c], 0, n/32, auxs[c])
				}
				rb := gguf.Q8_0.RowBytes(n)
				want := func(c, i int) float32 { return dotQ8_0G(w[i*rb:(i+1)*rb], acts[c], n) }
				check := func(name string, c int, out []float32) {
					for i := range nrows {
						if math.Float32bits(out[i]) != math.Float32bits(want(c, i)) {
							t.Fatalf("%s n=%d rows=%d quantized=%v column %d row %d: %g, dotQ8_0G %g", name, n, nrows, quantized, c, i, out[i], want(c, i))
						}
						checked++
					}
				}
				for name, k := range kernels {
					out := make([]float32, nrows+1)
					out[nrows] = 42 // the kernel must stop at nrows
					k(&iw[0], &acts[0][0], n/32, nrows, &out[0])
					check(name, 0, out)
					if out[nrows] != 42 {
						t.Fatalf("%s wrote past row %d", name, nrows)
					}
				}
				withAsm(false, func() {
					out := make([]float32, nrows)
					VecDotRowsQ8_0x4(gguf.Q8_0, iw, nrows, acts[1], n, out)
					check("go", 1, out)
				})
				var outs [Cols][]float32
				for c := range outs {
					outs[c] = make([]float32, nrows)
				}
				if ColsQ8_0x4(full) {
					VecDotColsQ8_0x4(gguf.Q8_0, iw, nrows, acts, auxs, n, outs)
					for c := range outs {
						check("cols", c, outs[c])
					}
				}
				// Without side data: the rows kernel, column by column.
				for c := range outs {
					outs[c] = make([]float32, nrows)
				}
				VecDotColsQ8_0x4(gguf.Q8_0, iw, nrows, acts, [Cols][]byte{}, n, outs)
				for c := range outs {
					check("cols without side data", c, outs[c])
				}
			}
		}
	}
	t.Logf("%d sums bitwise equal; kernels here: rows %v, VNNI %v, four columns %v, two columns %v", checked, q80x4.rows, q80x4.vnni, q80x4.cols, q80x4.cols2)
}

// InterleaveQ8_0 reports a -128 quant wherever in a block it sits, and
// never a scale byte of 0x80.
func TestInterleaveQ8_0FullRange(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 3))
	const nrows, n = 8, 96
	w := quantizedWeights(r, gguf.Q8_0, nrows, n)
	iw := make([]byte, len(w))
	if InterleaveQ8_0(iw, w, nrows, n) {
		t.Fatal("quantized floats reported a -128 quant")
	}
	for b := 0; b < len(w)/34; b++ {
		w[34*b+1] = 0x80 // a scale's high byte
	}
	if InterleaveQ8_0(iw, w, nrows, n) {
		t.Fatal("a scale byte of 0x80 reported as a -128 quant")
	}
	for j := 0; j < 32; j++ {
		x := slices.Clone(w)
		blk := 34 * (j % (len(w) / 34))
		x[blk+2+j] = 0x80
		if !InterleaveQ8_0(iw, x, nrows, n) {
			t.Fatalf("a -128 at quant %d of block %d not reported", j, blk/34)
		}
	}
}
