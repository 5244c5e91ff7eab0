package quant

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// TestInterleavedQ4_K requires every path of the interleaved Q4_K product
// (each set of assembly kernels this CPU runs, with every token count a
// call takes, and pure Go), in both orders, to equal dotQ4_KG (gemv) and
// dotQ4_KGemmG (gemm) on the rows in GGUF's layout, bit for bit: random
// weights and activations, row counts that are not multiples of 16, one
// to three super blocks a row, tokens one to four at a time.
func TestInterleavedQ4_K(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 7))
	for _, nb := range []int{1, 2, 3} {
		for _, nrows := range []int{8, 16, 24, 40} {
			n := nb * 256
			w := randWeights(r, gguf.Q4_K, nrows, n)
			iw := make([]byte, InterleavedQ4_KBytes(nrows, n))
			InterleaveQ4_K(iw, w, nrows, n)
			const tokens = 4
			ab := ActBytes(gguf.Q4_K, n)
			astride := ab + 292*r.IntN(2)
			act := make([]byte, tokens*astride)
			for c := 0; c < tokens; c++ {
				x := make([]float32, n)
				for i := range x {
					x[i] = float32(r.NormFloat64()) * float32(1+c)
				}
				QuantizeAct(gguf.Q4_K, x, act[c*astride:c*astride+ab])
			}
			for _, gemm := range []bool{false, true} {
				ref := dotQ4_KG
				if gemm {
					ref = dotQ4_KGemmG
				}
				want := make([][]float32, tokens)
				for c := range want {
					want[c] = make([]float32, nrows)
					for i := range want[c] {
						want[c][i] = ref(w[i*nb*144:(i+1)*nb*144], act[c*astride:c*astride+ab], n)
					}
				}
				run := func(m int) [][]float32 {
					got := make([][]float32, tokens)
					for c0 := 0; c0 < tokens; c0 += m {
						mm := min(m, tokens-c0)
						out := make([]float32, mm*nrows)
						ng := InterleavedGroups(nrows)
						a := act[c0*astride:]
						InterleavedQ4_KDot(iw, nrows, n, 0, ng/2, a, astride, mm, gemm, out, nrows)
						InterleavedQ4_KDot(iw, nrows, n, ng/2, ng, a, astride, mm, gemm, out, nrows)
						for j := 0; j < mm; j++ {
							got[c0+j] = out[j*nrows : (j+1)*nrows]
						}
					}
					return got
				}
				paths := map[string]func() [][]float32{
					"go": func() [][]float32 { var g [][]float32; withAsm(false, func() { g = run(4) }); return g },
				}
				names, sets := q4KSets()
				for i, set := range sets {
					for _, m := range []int{1, 2, 3, 4} {
						paths[names[i]+string(rune('0'+m))] = func() [][]float32 {
							old := asmQ4K
							asmQ4K = set
							defer func() { asmQ4K = old }()
							return run(m)
						}
					}
				}
				for name, f := range paths {
					got := f()
					for c := range got {
						for i := range got[c] {
							if math.Float32bits(got[c][i]) != math.Float32bits(want[c][i]) {
								t.Fatalf("%s gemm=%v: nb=%d rows=%d token %d row %d: %g, want %g", name, gemm, nb, nrows, c, i, got[c][i], want[c][i])
							}
						}
					}
				}
			}
		}
	}
}

// TestInterleaveQ4_KRoundTrip reads every row back out of the interleaved
// layout, the packed scales included.
func TestInterleaveQ4_KRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 4))
	for _, nrows := range []int{8, 16, 24} {
		n := 512
		w := randWeights(r, gguf.Q4_K, nrows, n)
		iw := make([]byte, InterleavedQ4_KBytes(nrows, n))
		InterleaveQ4_K(iw, w, nrows, n)
		row := make([]byte, gguf.Q4_K.RowBytes(n))
		for i := 0; i < nrows; i++ {
			InterleavedQ4_KRow(row, iw, n, i)
			if want := w[i*len(row) : (i+1)*len(row)]; !bytes.Equal(row, want) {
				t.Fatalf("rows=%d row %d: % x, want % x", nrows, i, row, want)
			}
		}
	}
}

// BenchmarkInterleavedQ4_K measures the interleaved Q4_K product (512
// rows of 2048 values, one thread, weights in cache) for each kernel set
// and token count, against the four-column kernel and the rows kernel on
// GGUF's layout.
func BenchmarkInterleavedQ4_K(b *testing.B) {
	const rows, n = 512, 2048
	r := rand.New(rand.NewPCG(1, 2))
	w := randWeights(r, gguf.Q4_K, rows, n)
	iw := make([]byte, InterleavedQ4_KBytes(rows, n))
	InterleaveQ4_K(iw, w, rows, n)
	ab := ActBytes(gguf.Q4_K, n)
	act := make([]byte, 4*ab)
	for t := 0; t < 4; t++ {
		QuantizeAct(gguf.Q4_K, randActivation(r, n), act[t*ab:(t+1)*ab])
	}
	out := make([]float32, 4*rows)
	names, sets := q4KSets()
	for i, set := range sets {
		for _, m := range []int{1, 4} {
			for _, gemm := range []bool{false, true} {
				b.Run(fmt.Sprintf("interleaved/%s/%d/gemm=%v", names[i], m, gemm), func(b *testing.B) {
					old := asmQ4K
					asmQ4K = set
					defer func() { asmQ4K = old }()
					for i := 0; i < b.N; i++ {
						InterleavedQ4_KDot(iw, rows, n, 0, rows/InterleavedRows, act, ab, m, gemm, out, rows)
					}
					b.ReportMetric(float64(rows*n*m)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
				})
			}
		}
	}
	var acts, auxs [Cols][]byte
	var outs [Cols][]float32
	for c := range acts {
		acts[c] = act[c*ab : (c+1)*ab]
		outs[c] = out[c*rows : (c+1)*rows]
	}
	b.Run("plain/cols4", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			VecDotCols(gguf.Q4_K, w, rows, acts, auxs, n, outs)
		}
		b.ReportMetric(float64(rows*n*Cols)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
	})
	b.Run("plain/rows", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			VecDotRows(gguf.Q4_K, w, rows, acts[0], n, outs[0])
		}
		b.ReportMetric(float64(rows*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
	})
}
