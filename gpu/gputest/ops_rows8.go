package gputest

import (
	"bytes"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// rows8Types are the weight types a backend may store in another layout
// when the row count is a multiple of 8 (the CPU backend's interleaved
// Q4_0, Q4_K and Q8_0).
var rows8Types = []gguf.TensorType{gguf.Q4_0, gguf.Q8_0, gguf.Q4_K}

// testRowsOf8 covers matrices whose row count is a multiple of 8 but not
// of 16, the ones a backend may store in another layout: products for
// token counts that take every tile size, the same matrix as an
// embedding table, and its bytes read back as they were given.
func testRowsOf8(t *testing.T, be gpu.Backend) {
	for _, wt := range rows8Types {
		if !slices.Contains(activeWeightTypes, wt) {
			continue
		}
		for _, T := range []int{1, 13} {
			t.Run(name(wt, "/T", T), func(t *testing.T) {
				const N = 40
				K := weightKs(wt)[0]
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

// testRowsOf8Stacks covers stacks of such matrices (one per head of a
// batched product, and experts of MatMulID) of each type the CPU backend
// interleaves, and products written through views whose rows lie apart
// (as MLA writes its absorbed query).
func testRowsOf8Stacks(t *testing.T, be gpu.Backend) {
	for _, wt := range rows8Types {
		if slices.Contains(activeWeightTypes, wt) {
			t.Run(wt.String(), func(t *testing.T) { testRowsOf8StacksOf(t, be, wt) })
		}
	}
}

func testRowsOf8StacksOf(t *testing.T, be gpu.Backend, wt gguf.TensorType) {
	const N, B, T, E, S, gap = 24, 2, 5, 4, 2, 8
	ks := weightKs(wt)
	K := ks[len(ks)-1]
	e := newEnv(t, be, 41+uint64(wt), T)
	W, w := e.weight("w", wt, 1, K, N, B)
	In, x := e.input("in", e.vals(K*B*T, 1), K, B, T)
	// out is {N, B, T} inside wide {N+gap, B, T}, from element 4 of each
	// row; flat is W's first matrix times In's B·T columns, likewise.
	row := 4 * (N + gap)
	Wide := e.output("wide", gguf.F32, N+gap, B, T)
	Out := e.g.View("out", Wide, 16, gpu.Shape4(N, B, T), &[4]int{4, row, row * B, row * B * T})
	W1, w1 := e.weight("w1", wt, 1, K, N)
	In1 := e.g.Reshape(In, K, B*T)
	Wide1 := e.output("wide1", gguf.F32, N+gap, B*T)
	Flat := e.g.View("flat", Wide1, 16, gpu.Shape4(N, B*T), &[4]int{4, row, row * B * T, row * B * T})
	X, xw := e.weight("experts", wt, 1, K, N, E)
	ids := []int{3, 0, 1, 3, 2, 1, 0, 2, 3, 1}
	IDs := e.ints("ids", ids, S, T)
	XOut := e.output("xout", gguf.F32, N, S, T)
	e.g.Do(&gpu.MatMul{W: W, In: In, Out: Out})
	e.g.Do(&gpu.MatMul{W: W1, In: In1, Out: Flat})
	e.g.Do(&gpu.MatMulID{W: X, In: In, IDs: IDs, Out: XOut})
	e.run(0)
	unview := func(wide []float64) []float64 {
		var v []float64
		for j := 0; j < B*T; j++ {
			v = append(v, wide[j*(N+gap)+4:j*(N+gap)+4+N]...)
		}
		return v
	}
	col := func(b, t int) []float64 { return x[(b+B*t)*K : (b+B*t+1)*K] }
	checkProducts(t, "out", unview(readF(t, Wide)), productRefs(wt, w, K, N, B, T, col))
	checkProducts(t, "flat", unview(readF(t, Wide1)), productRefs(wt, w1, K, N, 1, B*T, func(_, j int) []float64 { return x[j*K : (j+1)*K] }))
	var refs []productRef
	for tt := 0; tt < T; tt++ {
		for s := 0; s < S; s++ {
			a := newActRef(wt, x[(s+B*tt)*K:(s+B*tt+1)*K])
			ex := ids[s+S*tt]
			for n := 0; n < N; n++ {
				refs = append(refs, a.dot(wt, xw[(ex*N+n)*K:(ex*N+n+1)*K]))
			}
		}
	}
	checkProducts(t, "xout", readF(t, XOut), refs)
}
