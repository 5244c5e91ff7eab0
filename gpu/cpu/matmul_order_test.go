package cpu_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
)

// TestMatMulSumsAsRowsKernel holds a prefill product to the kernel
// RowsKernel picks for each token, bit for bit: tokens taken four at a
// time by a multi-column kernel must sum exactly as the one-token product
// llama.cpp would run for them, for row counts in and out of eights and
// token counts leaving every tail; float weights with it, in llamafile's
// order where rows come in fours; Q8_0, interleaved at load, with and
// without -128 quants. (Q4_0 weights are interleaved at
// load and summed in that layout's own order, not RowsKernel's.)
func TestMatMulSumsAsRowsKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 3))
	for _, wc := range orderCases {
		wt := wc.wt
		for _, N := range []int{64, 72, 67, 40} {
			for _, T := range []int{4, 9, 10, 11} {
				K := 3 * 256
				be := cpu.New(2)
				g := gpu.NewGraph(t.Name(), T)
				w := make([]float32, K*N)
				for i := range w {
					w[i] = float32(r.NormFloat64())
				}
				wq := make([]byte, wt.RowBytes(K)*N)
				if err := quant.Quantize(wt, w, wq); err != nil {
					t.Fatal(err)
				}
				if wc.fullRange {
					minQuants(wq, K)
				}
				wb, err := be.Weight("w", wt, gpu.Shape4(K, N), wq)
				if err != nil {
					t.Fatal(err)
				}
				x, xb := randF32(r, K*T)
				ib, err := be.Alloc("in", gguf.F32, gpu.Shape4(K, T))
				if err != nil {
					t.Fatal(err)
				}
				if err := ib.Write(0, xb); err != nil {
					t.Fatal(err)
				}
				ob, err := be.Alloc("out", gguf.F32, gpu.Shape4(N, T))
				if err != nil {
					t.Fatal(err)
				}
				g.Do(&gpu.MatMul{W: g.Bind("w", wb), In: g.Bind("in", ib), Out: g.Bind("out", ob)})
				p, err := be.Compile(g)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.Run(gpu.Params{}); err != nil {
					t.Fatal(err)
				}
				got := make([]byte, 4*N*T)
				if err := ob.Read(0, got); err != nil {
					t.Fatal(err)
				}
				act := make([]byte, quant.ActBytes(wt, K))
				want := make([]float32, N)
				for tok := 0; tok < T; tok++ {
					quant.QuantizeAct(wt, x[tok*K:(tok+1)*K], act)
					quant.RowsKernel(wt, true, N, T, tok)(wt, wq, N, act, K, want)
					for n := range want {
						if g := binary.LittleEndian.Uint32(got[4*(tok*N+n):]); g != math.Float32bits(want[n]) {
							t.Errorf("%s N=%d T=%d token %d row %d: %g, one token at a time %g", wc, N, T, tok, n, math.Float32frombits(g), want[n])
						}
					}
				}
			}
		}
	}
}

// TestMatMulIDSumsAsRowsKernel is the same for experts, which llama.cpp
// multiplies one token at a time whatever the batch: a four-column kernel
// may serve them only where it sums as that one-token product.
func TestMatMulIDSumsAsRowsKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 4))
	for _, wc := range orderCases {
		wt := wc.wt
		for _, N := range []int{64, 67} {
			const K, E, S, T = 512, 3, 2, 9
			be := cpu.New(2)
			g := gpu.NewGraph(t.Name(), T)
			w := make([]float32, K*N*E)
			for i := range w {
				w[i] = float32(r.NormFloat64())
			}
			wq := make([]byte, wt.RowBytes(K)*N*E)
			if err := quant.Quantize(wt, w, wq); err != nil {
				t.Fatal(err)
			}
			if wc.fullRange {
				minQuants(wq, K)
			}
			wb, err := be.Weight("w", wt, gpu.Shape4(K, N, E), wq)
			if err != nil {
				t.Fatal(err)
			}
			x, xb := randF32(r, K*T)
			// Every token takes experts 0 and 1, so each expert has all
			// nine tokens: two groups of four and one left over.
			ids := make([]byte, 4*S*T)
			for i := 0; i < S*T; i++ {
				binary.LittleEndian.PutUint32(ids[4*i:], uint32(i%S))
			}
			ib, _ := be.Alloc("in", gguf.F32, gpu.Shape4(K, 1, T))
			db, _ := be.Alloc("ids", gguf.I32, gpu.Shape4(S, T))
			ob, _ := be.Alloc("out", gguf.F32, gpu.Shape4(N, S, T))
			if err := ib.Write(0, xb); err != nil {
				t.Fatal(err)
			}
			if err := db.Write(0, ids); err != nil {
				t.Fatal(err)
			}
			g.Do(&gpu.MatMulID{W: g.Bind("w", wb), In: g.Bind("in", ib), IDs: g.Bind("ids", db), Out: g.Bind("out", ob)})
			p, err := be.Compile(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Run(gpu.Params{}); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, 4*N*S*T)
			if err := ob.Read(0, got); err != nil {
				t.Fatal(err)
			}
			act := make([]byte, quant.ActBytes(wt, K))
			want := make([]float32, N)
			rb := wt.RowBytes(K) * N
			for tok := 0; tok < T; tok++ {
				quant.QuantizeAct(wt, x[tok*K:(tok+1)*K], act)
				for s := 0; s < S; s++ {
					quant.RowsKernel(wt, true, N, 1, 0)(wt, wq[s*rb:(s+1)*rb], N, act, K, want)
					for n := range want {
						if g := binary.LittleEndian.Uint32(got[4*((tok*S+s)*N+n):]); g != math.Float32bits(want[n]) {
							t.Errorf("%s N=%d token %d expert %d row %d: %g, one token at a time %g", wc, N, tok, s, n, math.Float32frombits(g), want[n])
						}
					}
				}
			}
		}
	}
}

// orderCases are the weights the order tests multiply by: Q8_0 also
// with -128 quants, which llama.cpp's quantizer never writes but a file
// may hold, and which the AVX2 multi-column kernel cannot take (the
// backend must then take one token at a time, with the same sums).
var orderCases = []orderCase{{gguf.Q4_K, false}, {gguf.Q6_K, false}, {gguf.F32, false}, {gguf.F16, false},
	{gguf.Q8_0, false}, {gguf.Q8_0, true}}

type orderCase struct {
	wt        gguf.TensorType
	fullRange bool
}

func (c orderCase) String() string {
	if c.fullRange {
		return c.wt.String() + " with -128 quants"
	}
	return c.wt.String()
}

// minQuants sets every fifth quant of the Q8_0 rows wq (n values a row)
// to -128, the scales left alone.
func minQuants(wq []byte, n int) {
	for b := 0; b < len(wq)/34; b++ {
		for j := b % 5; j < 32; j += 5 {
			wq[34*b+2+j] = 0x80
		}
	}
}

// randF32 returns n normal random values and their little-endian bytes.
func randF32(r *rand.Rand, n int) ([]float32, []byte) {
	x, b := make([]float32, n), make([]byte, 4*n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x[i]))
	}
	return x, b
}
