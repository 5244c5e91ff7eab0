package quant

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// BenchmarkInterleavedQ4_0 measures the interleaved Q4_0 product on the
// shape of BenchmarkVecDotCols (512 rows of 2048 values, single-threaded,
// weights in cache) for one tile of m tokens, against the four-column
// kernel on the plain layout taking the same tokens.
func BenchmarkInterleavedQ4_0(b *testing.B) {
	const rows, n = 512, 2048
	r := rand.New(rand.NewPCG(1, 2))
	w := randWeights(r, gguf.Q4_0, rows, n)
	iw := make([]byte, InterleavedQ4_0Bytes(rows, n))
	InterleaveQ4_0(iw, w, rows, n)
	for _, m := range []int{1, 4, 8} {
		tile := make([]byte, m*TileActBytes(n))
		for t := 0; t < m; t++ {
			QuantizeTileAct(randActivation(r, n), 0, n/32, m, t, tile)
		}
		out := make([]float32, m*rows)
		names, sets := interleavedSets()
		for i, set := range sets {
			b.Run(fmt.Sprintf("interleaved/%s/%d", names[i], m), func(b *testing.B) {
				old := asmInterleaved
				asmInterleaved = set
				defer func() { asmInterleaved = old }()
				for i := 0; i < b.N; i++ {
					InterleavedQ4_0Dot(iw, rows, n, 0, rows/InterleavedRows, tile, m, out, rows)
				}
				b.ReportMetric(float64(rows*n*m)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
			})
		}
	}
	if !ColsSupported(gguf.Q4_0) {
		return
	}
	var acts, auxs [Cols][]byte
	var outs [Cols][]float32
	for c := range acts {
		acts[c] = make([]byte, ActBytes(gguf.Q4_0, n))
		QuantizeAct(gguf.Q4_0, randActivation(r, n), acts[c])
		auxs[c] = make([]byte, ColAuxBytes(gguf.Q4_0, n))
		ColAux(gguf.Q4_0, acts[c], 0, n/32, auxs[c])
		outs[c] = make([]float32, rows)
	}
	b.Run("plain/cols4", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			VecDotCols(gguf.Q4_0, w, rows, acts, auxs, n, outs)
		}
		b.ReportMetric(float64(rows*n*Cols)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
	})
	b.Run("plain/rows", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			VecDotRows(gguf.Q4_0, w, rows, acts[0], n, outs[0])
		}
		b.ReportMetric(float64(rows*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
	})
}
