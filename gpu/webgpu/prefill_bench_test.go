//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// BenchmarkPrefillMatMul is the products of a prefill step: T tokens
// against a k×n weight matrix (an 8B's k and v, q and o, gate or up, and
// down shapes), chained in one submission like
// BenchmarkMatVecChain so that the time is the kernels' own. GFLOP/s counts 2·k·n·T a product; tok/s is the tokens
// one product takes a second (a layer has several, a model many layers).
func BenchmarkPrefillMatMul(b *testing.B) {
	const chain = 8
	for _, shape := range [][2]int{{4096, 1024}, {4096, 4096}, {4096, 14336}, {14336, 4096}} {
		for _, typ := range []gguf.TensorType{gguf.Q4_K, gguf.Q4_0, gguf.Q8_0, gguf.Q6_K, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1} {
			for _, T := range []int{128, 512} {
				k, n := shape[0], shape[1]
				b.Run(fmt.Sprintf("%dx%d/%s/T%d", k, n, typ, T), func(b *testing.B) {
					be := openB(b)
					defer be.Close()
					g := gpu.NewGraph("prefill", T)
					in, _ := be.Alloc("in", gguf.F32, gpu.Shape4(k, T))
					out, _ := be.Alloc("out", gguf.F32, gpu.Shape4(n, T))
					w := g.Bind("w", randomWeights(b, be, typ, k, n))
					x, y := g.Bind("in", in), g.Bind("out", out)
					for range chain {
						g.Do(&gpu.MatMul{W: w, In: x, Out: y})
					}
					benchProgram(b, be, g, int64(typ.RowBytes(k)*n*chain))
					per := b.Elapsed().Seconds() / float64(b.N) / chain
					b.ReportMetric(2*float64(k)*float64(n)*float64(T)/per/1e9, "GFLOP/s")
					b.ReportMetric(float64(T)/per, "tok/s")
				})
			}
		}
	}
}
