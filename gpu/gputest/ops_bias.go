package gputest

import (
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// The ops of GGUF files as llama.cpp writes them today (issue 23): biases
// added to products (a bias {N} broadcast over {N, T}), per-tensor and
// per-expert scales multiplied after them, and merged expert gate and up
// products split into halves for the gated unit.

// testAddBroadcast: Add with B broadcast along the dimensions where its
// shape is 1: a bias over tokens (q/k/v biases of a prefill), over
// expert slots and tokens, a scalar, a per-token row, and into a strided
// A.
func testAddBroadcast(t *testing.T, be gpu.Backend) {
	const D, S, T = 67, 3, 5
	e := newEnv(t, be, 21, T)
	A, a := e.input("a", e.vals(D*T, 2), D, T)
	A3, a3 := e.input("a3", e.vals(D*S*T, 2), D, S, T)
	Wide, wide := e.input("wide", e.vals(2*D*T, 2), 2*D, T)
	Sv := e.g.View("sv", Wide, 4, gpu.Shape4(D, T), &[4]int{8, 8 * D, 8 * D * T, 8 * D * T})
	sv := make([]float64, D*T)
	for i := range sv {
		sv[i] = wide[i/D*2*D+2*(i%D)+1]
	}
	// A bias as a model binds it: a weight buffer of the file's F32 values.
	bias := e.vals(D, 0.5)
	Bias := e.f32Weight("bias", bias, D)
	bias = round32(bias)
	Row, row := e.input("row", e.vals(T, 1), 1, T)
	One, one := e.input("one", e.vals(1, 1), 1)
	Slot, slot := e.input("slot", e.vals(S*T, 1), 1, S, T)
	type want struct {
		out *gpu.Tensor
		v   []float64
	}
	var wants []want
	add := func(name string, A, B *gpu.Tensor, dims []int, f func(i int) float64) {
		out := e.output(name, gguf.F32, dims...)
		e.g.Do(&gpu.Add{A: A, B: B, Out: out})
		w := make([]float64, out.Elements())
		for i := range w {
			w[i] = f(i)
		}
		wants = append(wants, want{out, w})
	}
	add("bias", A, Bias, []int{D, T}, func(i int) float64 { return a[i] + bias[i%D] })
	add("bias-slots", A3, Bias, []int{D, S, T}, func(i int) float64 { return a3[i] + bias[i%D] })
	add("bias-strided", Sv, Bias, []int{D, T}, func(i int) float64 { return sv[i] + bias[i%D] })
	add("one", A, One, []int{D, T}, func(i int) float64 { return a[i] + one[0] })
	add("row", A, Row, []int{D, T}, func(i int) float64 { return a[i] + row[i/D] })
	add("slot", A3, Slot, []int{D, S, T}, func(i int) float64 { return a3[i] + slot[i/D] })
	e.run(0)
	for _, w := range wants {
		// One float32 rounding of the exact sum.
		near(t, w.out.Name, readF(t, w.out), w.v, relTol(w.v, 1e-7, 1e-7))
	}
}

// testExpertScale: per-expert scales as the models apply them: the
// chosen experts' scales gathered by an Embed from a {1, E} table with
// the ids as tokens, then a Mul of the products {N, S, T} by them
// {1, S, T}; and a per-tensor scale {1} after a product.
func testExpertScale(t *testing.T, be gpu.Backend) {
	for _, T := range []int{1, 4} {
		t.Run(name("T", T), func(t *testing.T) {
			const N, S, E = 45, 3, 7
			e := newEnv(t, be, 31+uint64(T), T)
			scales := e.vals(E, 2)
			Tab := e.f32Weight("scales", scales, 1, E)
			scales = round32(scales)
			ids := make([]int, S*T)
			for tt := 0; tt < T; tt++ {
				copy(ids[tt*S:], e.rng.Perm(E)[:S])
			}
			IDs := e.ints("ids", ids, S, T)
			P, p := e.input("p", e.vals(N*S*T, 1), N, S, T)
			got := e.g.New("gathered", gguf.F32, 1, S*T)
			e.g.Do(&gpu.Embed{Table: Tab, Tokens: e.g.Reshape(IDs, S*T), Out: got})
			Out := e.output("out", gguf.F32, N, S, T)
			e.g.Do(&gpu.Mul{A: P, B: e.g.Reshape(got, 1, S, T), Out: Out})
			one := e.vals(1, 3)
			One := e.f32Weight("one", one, 1)
			one = round32(one)
			Out1 := e.output("out1", gguf.F32, N, S, T)
			e.g.Do(&gpu.Mul{A: P, B: One, Out: Out1})
			e.run(0)
			want := make([]float64, N*S*T)
			want1 := make([]float64, N*S*T)
			for i := range want {
				want[i] = p[i] * scales[ids[i/N]]
				want1[i] = p[i] * one[0]
			}
			near(t, "per-expert", readF(t, Out), want, relTol(want, 1e-7, 1e-7))
			near(t, "per-tensor", readF(t, Out1), want1, relTol(want1, 1e-7, 1e-7))
		})
	}
}

// testGateUpHalves: merged expert gate and up weights {K, 2F, E} (gate
// rows first, then up, as llama.cpp's ffn_gate_up_exps), one MatMulID
// for both, then SwiGLU over the two halves of each output row as views
// (offset 0 and F, row stride 2F): what a model emits for a file with
// merged experts.
func testGateUpHalves(t *testing.T, be gpu.Backend) {
	for _, wt := range []gguf.TensorType{gguf.F32, gguf.Q8_0, gguf.Q4_K} {
		for _, T := range []int{1, 5} {
			t.Run(name(wt, "/T", T), func(t *testing.T) {
				K := weightKs(wt)[0]
				const F, E, S = 40, 6, 3
				e := newEnv(t, be, 41+uint64(T)+uint64(wt)<<8, T)
				W, w := e.weight("gate_up", wt, 1, K, 2*F, E)
				In, x := e.input("in", e.vals(K*T, 1), K, 1, T)
				ids := make([]int, S*T)
				for tt := 0; tt < T; tt++ {
					copy(ids[tt*S:], e.rng.Perm(E)[:S])
				}
				IDs := e.ints("ids", ids, S, T)
				GU := e.output("gu", gguf.F32, 2*F, S, T)
				e.g.Do(&gpu.MatMulID{W: W, In: In, IDs: IDs, Out: GU})
				st := [4]int{4, 8 * F, 8 * F * S, 8 * F * S * T}
				G := e.g.View("gate", GU, 0, gpu.Shape4(F, S, T), &st)
				U := e.g.View("up", GU, 4*F, gpu.Shape4(F, S, T), &st)
				Out := e.output("out", gguf.F32, F, S, T)
				e.g.Do(&gpu.SwiGLU{Gate: G, Up: U, Out: Out})
				e.run(0)
				var refs []productRef
				for tt := 0; tt < T; tt++ {
					a := newActRef(wt, x[tt*K:(tt+1)*K])
					for s := 0; s < S; s++ {
						ex := ids[s+S*tt]
						for n := 0; n < 2*F; n++ {
							refs = append(refs, a.dot(wt, w[(ex*2*F+n)*K:(ex*2*F+n+1)*K]))
						}
					}
				}
				gu := readF(t, GU)
				checkProducts(t, "gate_up", gu, refs)
				// the gated unit of the halves the product wrote
				want := make([]float64, F*S*T)
				for r := 0; r < S*T; r++ {
					for f := 0; f < F; f++ {
						g, u := gu[r*2*F+f], gu[r*2*F+F+f]
						want[r*F+f] = g / (1 + math.Exp(-g)) * u
					}
				}
				near(t, "out", readF(t, Out), want, relTol(want, 2e-6, 1e-7))
			})
		}
	}
}

// f32Weight makes an F32 weight buffer holding x (what a model binds for
// a file's bias or scale) and binds it.
func (e *env) f32Weight(name string, x []float64, dims ...int) *gpu.Tensor {
	e.t.Helper()
	b, err := e.be.Weight(name, gguf.F32, gpu.Shape4(dims...), f32bytes(x))
	if err != nil {
		e.fatal("weight %s: %v", name, err)
	}
	return e.g.Bind(name, b)
}
