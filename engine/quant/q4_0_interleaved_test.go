package quant

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// interleavedRef is the product of plain Q4_0 rows with a Q8_0 activation
// the way llama.cpp's repacked kernels sum it, written from the GGUF
// layouts directly: per block the exact integer dot, then acc = fma(s,
// dw·da, acc).
func interleavedRef(w []byte, r, n int, act []byte) float32 {
	nb := n / 32
	var acc float32
	for b := 0; b < nb; b++ {
		x, y := w[(r*nb+b)*18:], act[b*q80Bytes:]
		var s int32
		for j := 0; j < 16; j++ {
			s += (int32(x[2+j]&15) - 8) * int32(int8(y[2+j]))
			s += (int32(x[2+j]>>4) - 8) * int32(int8(y[18+j]))
		}
		acc = FMA32(float32(s), float32(f16at(x, 0)*f16at(y, 0)), acc)
	}
	return acc
}

// TestInterleavedQ4_0 requires every path of the interleaved product (each
// set of assembly kernels this CPU runs, with tiles of 8, 4 and 1 tokens
// and one token at a time as decode runs it, and pure Go) to equal
// interleavedRef bit for bit, on random
// weights and activations, row counts that are not multiples of 16 and
// block counts with every remainder.
func TestInterleavedQ4_0(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 2))
	if !InterleavedFast() {
		t.Log("no interleaved assembly on this CPU: checking the pure-Go kernel alone")
	}
	names, _ := interleavedSets()
	t.Logf("assembly kernel sets: %v", names)
	for _, nb := range []int{1, 2, 3, 5, 8, 13, 64, 67} {
		for _, nrows := range []int{8, 16, 24, 40, 56} {
			n := nb * 32
			tokens := 1 + r.IntN(14)
			w := quantizedWeights(r, gguf.Q4_0, nrows, n)
			iw := make([]byte, InterleavedQ4_0Bytes(nrows, n))
			InterleaveQ4_0(iw, w, nrows, n)
			xs := make([][]float32, tokens)
			want := make([][]float32, tokens)
			for c := range xs {
				xs[c] = make([]float32, n)
				for i := range xs[c] {
					xs[c][i] = float32(r.NormFloat64()) * float32(1+c%3)
				}
				act := make([]byte, ActBytes(gguf.Q4_0, n))
				QuantizeAct(gguf.Q4_0, xs[c], act)
				want[c] = make([]float32, nrows)
				for i := range want[c] {
					want[c][i] = interleavedRef(w, i, n, act)
				}
			}
			// run multiplies the tokens in tiles of the given sizes; the
			// groups in two calls, as the backend's workers split them.
			run := func(split []int) [][]float32 {
				got := make([][]float32, tokens)
				t0 := 0
				for _, m := range split {
					tile := make([]byte, m*TileActBytes(n))
					out := make([]float32, m*nrows)
					for j := 0; j < m; j++ {
						half := nb / 2
						QuantizeTileAct(xs[t0+j], 0, half, m, j, tile)
						QuantizeTileAct(xs[t0+j], half, nb, m, j, tile)
					}
					ng := InterleavedGroups(nrows)
					InterleavedQ4_0Dot(iw, nrows, n, 0, ng/2, tile, m, out, nrows)
					InterleavedQ4_0Dot(iw, nrows, n, ng/2, ng, tile, m, out, nrows)
					for j := 0; j < m; j++ {
						got[t0+j] = out[j*nrows : (j+1)*nrows]
					}
					t0 += m
				}
				return got
			}
			ones := make([]int, tokens)
			for i := range ones {
				ones[i] = 1
			}
			paths := map[string]func() [][]float32{
				"go": func() [][]float32 { var g [][]float32; withAsm(false, func() { g = run(TileSplit(tokens)) }); return g },
			}
			names, sets := interleavedSets()
			for i, set := range sets {
				with := func(split []int) func() [][]float32 {
					return func() [][]float32 {
						old := asmInterleaved
						asmInterleaved = set
						defer func() { asmInterleaved = old }()
						return run(split)
					}
				}
				paths[names[i]+" tiles"] = with(TileSplit(tokens))
				paths[names[i]+" one token"] = with(ones)
			}
			for name, f := range paths {
				got := f()
				for c := range got {
					for i := range got[c] {
						if math.Float32bits(got[c][i]) != math.Float32bits(want[c][i]) {
							t.Fatalf("%s: nb=%d rows=%d token %d of %d row %d: %g, want %g", name, nb, nrows, c, tokens, i, got[c][i], want[c][i])
						}
					}
				}
			}
		}
	}
}

// TestInterleaveRoundTrip reads every row back out of the interleaved
// layout.
func TestInterleaveRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 4))
	for _, nrows := range []int{8, 16, 24, 48} {
		n := 96
		w := quantizedWeights(r, gguf.Q4_0, nrows, n)
		iw := make([]byte, InterleavedQ4_0Bytes(nrows, n))
		InterleaveQ4_0(iw, w, nrows, n)
		row := make([]byte, gguf.Q4_0.RowBytes(n))
		for i := 0; i < nrows; i++ {
			InterleavedQ4_0Row(row, iw, n, i)
			if want := w[i*len(row) : (i+1)*len(row)]; !bytes.Equal(row, want) {
				t.Fatalf("rows=%d row %d: % x, want % x", nrows, i, row, want)
			}
		}
	}
}

func TestTileSplit(t *testing.T) {
	for tokens := 0; tokens < 40; tokens++ {
		s := 0
		for _, m := range TileSplit(tokens) {
			s += m
		}
		if s != tokens {
			t.Fatalf("TileSplit(%d) = %v", tokens, TileSplit(tokens))
		}
	}
}
