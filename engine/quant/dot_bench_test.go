package quant

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// BenchmarkVecDotRows measures one single-threaded matvec per op and reports
// the weight bytes read per second: a 2048x2048 matrix (fits in a large L2
// or L3) and 1024 rows of 14336 values (the shape of a Llama-3-8B FFN down
// projection, 4096x14336, cut to a quarter of its rows so the benchmark
// stays quick while the weights still come from memory).
func BenchmarkVecDotRows(b *testing.B) {
	shapes := []struct{ rows, n int }{{2048, 2048}, {1024, 14336}}
	for _, sh := range shapes {
		for _, t := range dotTypes {
			for _, path := range []string{"asm", "go"} {
				if path == "asm" && !DotAsm(t) {
					continue
				}
				name := fmt.Sprintf("%dx%d/%s/%s", sh.rows, sh.n, t, path)
				b.Run(name, func(b *testing.B) {
					r := rand.New(rand.NewPCG(1, 2))
					w := randWeights(r, t, sh.rows, sh.n)
					act := make([]byte, ActType(t).RowBytes(sh.n))
					QuantizeAct(t, randActivation(r, sh.n), act)
					out := make([]float32, sh.rows)
					withAsm(path == "asm", func() {
						b.SetBytes(int64(len(w)))
						b.ResetTimer()
						for i := 0; i < b.N; i++ {
							VecDotRows(t, w, sh.rows, act, sh.n, out)
						}
						b.StopTimer()
					})
					b.ReportMetric(float64(len(w))*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
				})
			}
		}
	}
}

// BenchmarkQuantizeAct measures preparing one activation row of 4096.
func BenchmarkQuantizeAct(b *testing.B) {
	x := randActivation(rand.New(rand.NewPCG(1, 2)), 4096)
	for _, w := range []gguf.TensorType{gguf.Q4_0, gguf.Q4_1, gguf.Q4_K} {
		b.Run(ActType(w).String(), func(b *testing.B) {
			dst := make([]byte, ActType(w).RowBytes(len(x)))
			b.SetBytes(int64(4 * len(x)))
			for i := 0; i < b.N; i++ {
				QuantizeAct(w, x, dst)
			}
		})
	}
}

// BenchmarkVecDotCols compares a prefill-like product, 512 rows of 2048
// values against four activation columns, taken four columns at once and
// one column at a time in the same order (both single-threaded; weights
// stay in cache, so this measures the arithmetic, not memory).
func BenchmarkVecDotCols(b *testing.B) {
	const rows, n = 512, 2048
	for _, t := range dotTypes {
		if !ColsSupported(t) {
			continue
		}
		r := rand.New(rand.NewPCG(1, 2))
		w := randWeights(r, t, rows, n)
		var acts, auxs [Cols][]byte
		var outs [Cols][]float32
		for c := range acts {
			acts[c] = make([]byte, ActType(t).RowBytes(n))
			QuantizeAct(t, randActivation(r, n), acts[c])
			auxs[c] = make([]byte, ColAuxBytes(t, n))
			ColAux(t, acts[c], 0, n/t.BlockSize(), auxs[c])
			outs[c] = make([]float32, rows)
		}
		b.Run(fmt.Sprintf("%s/cols", t), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				VecDotCols(t, w, rows, acts, auxs, n, outs)
			}
			b.ReportMetric(float64(rows*n*Cols)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
		})
		b.Run(fmt.Sprintf("%s/rows", t), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for c := range acts {
					colsRows(t)(t, w, rows, acts[c], n, outs[c])
				}
			}
			b.ReportMetric(float64(rows*n*Cols)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
		})
	}
}
