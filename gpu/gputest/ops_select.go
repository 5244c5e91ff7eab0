package gputest

import (
	"math"
	"sort"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// topRef returns the indices of the k largest values, largest first, ties
// to the lower index.
func topRef(x []float64, k int) []int {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] > x[idx[b]] })
	return idx[:k]
}

// routeRef follows llama.cpp's build_moe_ffn: probabilities by the gating
// function, bias added for selection only, top-k, weights taken from the
// unbiased probabilities (softmaxed over the chosen for SoftmaxTopK),
// normalised with the sum clamped at 2^-14, then scaled (0: no scaling).
func routeRef(o *gpu.Route, logits, bias []float64) (ids []int, w []float64) {
	E := len(logits)
	p := make([]float64, E)
	switch o.Gating {
	case gpu.GateSoftmax:
		m := math.Inf(-1)
		for _, v := range logits {
			m = math.Max(m, v)
		}
		var s float64
		for i, v := range logits {
			p[i] = math.Exp(v - m)
			s += p[i]
		}
		for i := range p {
			p[i] /= s
		}
	case gpu.GateSigmoid:
		for i, v := range logits {
			p[i] = 1 / (1 + math.Exp(-v))
		}
	default:
		copy(p, logits)
	}
	sel := append([]float64(nil), p...)
	for i := range bias {
		sel[i] += bias[i]
	}
	ids = topRef(sel, o.K)
	for _, id := range ids {
		w = append(w, p[id])
	}
	if o.Gating == gpu.GateSoftmaxTopK {
		m := math.Inf(-1)
		for _, v := range w {
			m = math.Max(m, v)
		}
		var s float64
		for i := range w {
			w[i] = math.Exp(w[i] - m)
			s += w[i]
		}
		for i := range w {
			w[i] /= s
		}
	}
	if o.Norm {
		var s float64
		for _, v := range w {
			s += v
		}
		s = math.Max(s, 6.103515625e-5)
		for i := range w {
			w[i] /= s
		}
	}
	if o.Scale != 0 {
		for i := range w {
			w[i] *= float64(o.Scale)
		}
	}
	return ids, w
}

func testRoute(t *testing.T, be gpu.Backend) {
	const E, T, K = 11, 5, 3
	for _, g := range []gpu.Gating{gpu.GateSoftmax, gpu.GateSigmoid, gpu.GateSoftmaxTopK} {
		for _, bias := range []bool{false, true} {
			for _, norm := range []bool{false, true} {
				for _, scale := range []float32{0, 2.5} {
					t.Run(name("gate", g, "/bias=", bias, "/norm=", norm, "/scale=", scale), func(t *testing.T) {
						e := newEnv(t, be, uint64(g)*31+uint64(scale*2), T)
						L, l := e.input("logits", e.vals(E*T, 3), E, T)
						op := &gpu.Route{Logits: L, K: K, Gating: g, Norm: norm, Scale: scale}
						var b []float64
						if bias {
							op.Bias, b = e.input("bias", e.vals(E, 0.5), E)
						}
						op.IDs = e.output("ids", gguf.I32, K, T)
						op.Weights = e.output("w", gguf.F32, K, T)
						e.g.Do(op)
						e.run(0)
						checkRoute(t, op, l, b, E, T)
					})
				}
			}
		}
	}
	t.Run("ties", func(t *testing.T) {
		// Equal logits: the lower expert index wins, under every gating.
		for _, g := range []gpu.Gating{gpu.GateSoftmax, gpu.GateSigmoid, gpu.GateSoftmaxTopK} {
			e := newEnv(t, be, 99, 2)
			l := []float64{0.5, 2, -1, 2, 2, 0.25, 2, -3, 1, 0.5, 1}
			l = append(l, 1, 1, -2, 1, 0.75, 1, -1, 1, 0.5, 1, 1)
			L, lr := e.input("logits", l, E, 2)
			op := &gpu.Route{Logits: L, K: K, Gating: g, Norm: true,
				IDs: e.output("ids", gguf.I32, K, 2), Weights: e.output("w", gguf.F32, K, 2)}
			e.g.Do(op)
			e.run(0)
			checkRoute(t, op, lr, nil, E, 2)
		}
	})
}

func checkRoute(t *testing.T, op *gpu.Route, l, b []float64, E, T int) {
	t.Helper()
	ids, w := readI(t, op.IDs), readF(t, op.Weights)
	K := op.K
	for tt := 0; tt < T; tt++ {
		wi, ww := routeRef(op, l[tt*E:(tt+1)*E], b)
		for k := 0; k < K; k++ {
			if ids[tt*K+k] != wi[k] {
				t.Fatalf("token %d: experts %v, want %v", tt, ids[tt*K:(tt+1)*K], wi)
			}
		}
		// exp and a few float32 sums and products per weight.
		near(t, name("weights of token ", tt), w[tt*K:(tt+1)*K], ww, relTol(ww, 4e-6, 1e-7))
	}
}

func testArgmaxTopK(t *testing.T, be gpu.Backend) {
	for _, V := range []int{1000, 40000} {
		t.Run(name("V", V), func(t *testing.T) {
			const T, K = 3, 6
			e := newEnv(t, be, uint64(V), T)
			x := e.vals(V*T, 4)
			// Plant ties: token 0's maximum twice, token 1's top values in
			// a run of equal values, token 2's maximum twice 256 apart (one
			// thread's consecutive elements on a backend striding by 256).
			x[V/3], x[V/2] = 10, 10
			x[2*V+5], x[2*V+5+256] = 11, 11
			for _, i := range []int{7, 3, V - 1, V / 2} {
				x[V+i] = 9
			}
			x[V+11] = 9.5
			In, xi := e.input("in", x, V, T)
			AM := e.output("argmax", gguf.I32, T)
			IDs := e.output("ids", gguf.I32, K, T)
			Vals := e.output("vals", gguf.F32, K, T)
			e.g.Do(&gpu.Argmax{In: In, Out: AM})
			e.g.Do(&gpu.TopK{In: In, IDs: IDs, Vals: Vals, K: K})
			e.run(0)
			am, ids, vals := readI(t, AM), readI(t, IDs), readF(t, Vals)
			for tt := 0; tt < T; tt++ {
				row := xi[tt*V : (tt+1)*V]
				want := topRef(row, K)
				if am[tt] != want[0] {
					t.Errorf("token %d: argmax %d, want %d", tt, am[tt], want[0])
				}
				for k := 0; k < K; k++ {
					if ids[tt*K+k] != want[k] || vals[tt*K+k] != row[want[k]] {
						t.Errorf("token %d: top-%d ids %v vals %v, want ids %v", tt, K, ids[tt*K:(tt+1)*K], vals[tt*K:(tt+1)*K], want)
						break
					}
				}
			}
		})
	}
}

// topKRow makes one row of a top-k case.
type topKRow func(e *env, V int) []float64

// TopKMax is the largest K the suite asks of a top-k: the WebGPU kernel's
// limit.
const TopKMax = 1024

// topKCases aim at the paths of a radix-select top-k: rows that fit its
// candidate buffer at once, rows that take one to four histogram rounds,
// and rows with more ties at the K-th value than it can gather, whose
// lowest indices must win. V is often not a multiple of 256.
func topKCases() []struct {
	what string
	V, K int
	row  topKRow
} {
	random := func(e *env, V int) []float64 { return e.vals(V, 4) }
	flat := func(e *env, V int) []float64 {
		x := make([]float64, V)
		for i := range x {
			x[i] = -0.75
		}
		return x
	}
	// plateau puts n values of 5 at random places below above larger ones.
	plateau := func(above, n int) topKRow {
		return func(e *env, V int) []float64 {
			x := e.vals(V, 4)
			for k, i := range e.rng.Perm(V)[:above+n] {
				if k < above {
					x[i] = 5 + e.rng.Float64()
				} else {
					x[i] = 5
				}
			}
			return x
		}
	}
	negative := func(e *env, V int) []float64 {
		x := e.vals(V, 4)
		for i := range x {
			x[i] = -math.Abs(x[i])
		}
		return x
	}
	// zeros: the largest values are +0 and -0, which tie.
	zeros := func(e *env, V int) []float64 {
		x := negative(e, V)
		for k, i := range e.rng.Perm(V)[:24] {
			x[i] = math.Copysign(0, float64(k%2*2-1))
		}
		return x
	}
	// masked leaves finite only a few values, fewer than K when few < K.
	masked := func(few int) topKRow {
		return func(e *env, V int) []float64 {
			x := e.vals(V, 4)
			keep := e.rng.Perm(V)[:few]
			for i := range x {
				x[i] = math.Inf(-1)
			}
			for _, i := range keep {
				x[i] = 4 * e.rng.Float64()
			}
			return x
		}
	}
	// close: floats a few thousand ulps apart (of both signs), equal in
	// their top 20 bits, many repeated.
	close := func(e *env, V int) []float64 {
		x := make([]float64, V)
		for i := range x {
			b := uint32(0x3f800000 + e.rng.IntN(4000))
			if i%3 == 0 {
				b |= 1 << 31
			}
			x[i] = float64(math.Float32frombits(b))
		}
		return x
	}
	return []struct {
		what string
		V, K int
		row  topKRow
	}{
		{"random", 1, 1, random},
		{"random", 300, 256, random},
		{"random", 1000, 40, random},
		{"random", 1000, 1000, random},
		{"random", 1025, TopKMax, random},
		{"random", 40000, 1, random},
		{"random", 40000, 40, random},
		{"random", 40000, 200, random},
		{"random", 40000, 256, random},
		{"random", 40000, TopKMax, random},
		{"random", 151936, 256, random},
		{"flat", 1000, 200, flat},
		{"flat", 40000, 256, flat},
		{"plateau-gathered", 40000, 200, plateau(150, 300)},
		{"plateau-many", 40000, 200, plateau(100, 3000)},
		{"plateau-top", 40000, 40, plateau(0, 500)},
		{"negative", 40000, 200, negative},
		{"zeros", 5000, 40, zeros},
		{"minus-inf", 40000, 256, masked(30000)},
		{"minus-inf-most", 1000, 200, masked(150)},
		{"minus-inf-most", 40000, 200, masked(30)},
		{"close", 40000, 256, close},
	}
}

func testTopK(t *testing.T, be gpu.Backend) {
	for i, c := range topKCases() {
		t.Run(name(c.what, "/V", c.V, "/K", c.K), func(t *testing.T) {
			const T = 2
			e := newEnv(t, be, uint64(100+i), T)
			var x []float64
			for range T {
				x = append(x, c.row(e, c.V)...)
			}
			checkTopK(t, e, x, c.V, T, c.K, x)
		})
	}
	// NaN never compares greater: where at least K values are numbers
	// and the first K of them come before every NaN (the CPU backend's
	// insertion keeps a NaN met while its list is short), the NaNs are
	// never chosen.
	t.Run("NaN", func(t *testing.T) {
		const V, T, K = 5000, 2, 40
		e := newEnv(t, be, 7, T)
		x := e.vals(V*T, 4)
		ref := append([]float64(nil), x...)
		for i := range x {
			if i%V >= 2*K && e.rng.IntN(10) == 0 {
				x[i], ref[i] = math.NaN(), math.Inf(-1)
			}
		}
		checkTopK(t, e, x, V, T, K, ref)
	})
}

// checkTopK runs a TopK of x (T rows of V) and compares it with topRef of
// ref (x itself, or x with stand-ins for what topRef cannot order): the
// same ids in the same order, and values with the row's very bits.
func checkTopK(t *testing.T, e *env, x []float64, V, T, K int, ref []float64) {
	t.Helper()
	In, xi := e.input("in", x, V, T)
	op := &gpu.TopK{In: In, K: K, IDs: e.output("ids", gguf.I32, K, T), Vals: e.output("vals", gguf.F32, K, T)}
	e.g.Do(op)
	e.run(0)
	ids, vals := readI(t, op.IDs), readF(t, op.Vals)
	for tt := 0; tt < T; tt++ {
		row := xi[tt*V : (tt+1)*V]
		want := topRef(round32(ref[tt*V:(tt+1)*V]), K)
		for k := 0; k < K; k++ {
			got := ids[tt*K+k]
			if got != want[k] || math.Float64bits(vals[tt*K+k]) != math.Float64bits(row[want[k]]) {
				t.Fatalf("token %d: rank %d: id %d value %g, want id %d value %g (first ids %v, want %v)",
					tt, k, got, vals[tt*K+k], want[k], row[want[k]], ids[tt*K:tt*K+min(K, 8)], want[:min(K, 8)])
			}
		}
	}
}
