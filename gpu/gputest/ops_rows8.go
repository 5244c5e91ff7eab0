package gputest

import (
	"bytes"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// testRowsOf8 covers matrices whose row count is a multiple of 8 but not
// of 16, the ones a backend may store in another layout (the CPU
// backend's interleaved Q4_0): products for token counts that take every
// tile size, the same matrix as an embedding table, and its bytes read
// back as they were given.
func testRowsOf8(t *testing.T, be gpu.Backend) {
	for _, wt := range []gguf.TensorType{gguf.Q4_0, gguf.Q8_0} {
		if !slices.Contains(activeWeightTypes, wt) {
			continue
		}
		for _, T := range []int{1, 13} {
			t.Run(name(wt, "/T", T), func(t *testing.T) {
				const K, N = 288, 40
				e := newEnv(t, be, uint64(T)*5+uint64(wt)<<8, T)
				W, w := e.weight("w", wt, 1, K, N)
				In, x := e.input("in", e.vals(K*T, 2), K, T)
				Out := e.output("out", gguf.F32, N, T)
				toks := make([]int, T)
				for i := range toks {
					toks[i] = (7 * i) % N
				}
				Tok := e.ints("tokens", toks, T)
				Emb := e.output("emb", gguf.F32, K, T)
				e.g.Do(&gpu.MatMul{W: W, In: In, Out: Out})
				e.g.Do(&gpu.Embed{Table: W, Tokens: Tok, Out: Emb})
				e.run(0)
				refs := productRefs(wt, w, K, N, 1, T, func(_, t int) []float64 { return x[t*K : (t+1)*K] })
				checkProducts(t, "out", readF(t, Out), refs)
				var want []float64
				for _, id := range toks {
					want = append(want, w[id*K:(id+1)*K]...)
				}
				near(t, "emb", readF(t, Emb), want, relTol(want, 1e-6, 1e-7))
				f := make([]float32, K*N)
				for i, v := range w {
					f[i] = float32(v)
				}
				data := make([]byte, gpu.Bytes(wt, W.Shape))
				if err := quant.Quantize(wt, f, data); err != nil {
					t.Fatal(err)
				}
				got := make([]byte, len(data)-5)
				if err := W.Buf.Read(5, got); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, data[5:]) {
					t.Errorf("the weight's bytes read back differ from those given")
				}
			})
		}
	}
}
