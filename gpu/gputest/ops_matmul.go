package gputest

import (
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// productRefs computes references for Out[n, b, t] = Σ_k W[k, n, b]·x(b, t)[k].
func productRefs(wt gguf.TensorType, w []float64, K, N, B, T int, col func(b, t int) []float64) []productRef {
	refs := make([]productRef, N*B*T)
	for t := 0; t < T; t++ {
		for b := 0; b < B; b++ {
			a := newActRef(wt, col(b, t))
			for n := 0; n < N; n++ {
				refs[n+N*(b+B*t)] = a.dot(wt, w[(b*N+n)*K:(b*N+n+1)*K])
			}
		}
	}
	return refs
}

func testMatMul(t *testing.T, be gpu.Backend) {
	for _, wt := range activeWeightTypes {
		for _, K := range weightKs(wt) {
			// Past a few tokens, backends may take another kernel (a tiled
			// matmul on WebGPU): 70 spans more than one tile of tokens.
			for _, T := range tokenCounts(1, 3, 17, 70) {
				t.Run(name(wt, "/K", K, "/T", T), func(t *testing.T) {
					const N = 67
					e := newEnv(t, be, uint64(K*100+T)+uint64(wt)<<20, T)
					W, w := e.weight("w", wt, 1, K, N)
					In, x := e.input("in", e.vals(K*T, 2), K, T)
					Out := e.output("out", gguf.F32, N, T)
					e.g.Do(&gpu.MatMul{W: W, In: In, Out: Out})
					e.run(0)
					refs := productRefs(wt, w, K, N, 1, T, func(_, t int) []float64 { return x[t*K : (t+1)*K] })
					checkProducts(t, "out", readF(t, Out), refs)
				})
			}
		}
	}
}

// testMatMulBatched covers B > 1 (one matrix per head, MLA's absorbed
// projections), for a decode's few tokens and a prefill's many (70 span
// more than one of WebGPU's tiles).
func testMatMulBatched(t *testing.T, be gpu.Backend) {
	for _, wt := range []gguf.TensorType{gguf.F32, gguf.F16, gguf.Q8_0, gguf.Q4_0} {
		for _, T := range tokenCounts(5, 70) {
			t.Run(name(wt, "/T", T), func(t *testing.T) { batchedProducts(t, be, wt, T) })
		}
	}
}

// batchedProducts is one case of testMatMulBatched.
func batchedProducts(t *testing.T, be gpu.Backend, wt gguf.TensorType, T int) {
	const K, N, B = 96, 19, 3
	e := newEnv(t, be, 7+uint64(wt)+uint64(T)<<8, T)
	W, w := e.weight("w", wt, 1, K, N, B)
	In, x := e.input("in", e.vals(K*B*T, 1), K, B, T)
	Out := e.output("out", gguf.F32, N, B, T)
	e.g.Do(&gpu.MatMul{W: W, In: In, Out: Out})
	e.run(0)
	refs := productRefs(wt, w, K, N, B, T, func(b, t int) []float64 { return x[(b+B*t)*K : (b+B*t+1)*K] })
	checkProducts(t, "out", readF(t, Out), refs)
}

// testMatMulStrided feeds strided views: every other column of a wider
// input (row stride), and elements two floats apart (element stride).
func testMatMulStrided(t *testing.T, be gpu.Backend) {
	for _, wt := range []gguf.TensorType{gguf.F32, gguf.Q4_0, gguf.Q4_K} {
		for _, T := range tokenCounts(3, 17) {
			t.Run(name(wt, "/T", T), func(t *testing.T) {
				stridedProducts(t, be, wt, T)
			})
		}
	}
}

// stridedProducts is one case of testMatMulStrided: T tokens of type wt.
func stridedProducts(t *testing.T, be gpu.Backend, wt gguf.TensorType, T int) {
	K := weightKs(wt)[0]
	const N = 33
	e := newEnv(t, be, 11+uint64(wt)+uint64(T)<<8, T)
	W, w := e.weight("w", wt, 1, K, N)
	// Base {2K+8, T}; view A takes K elements from offset 8 of each
	// row; view B takes elements 0, 2, 4, ... of each row.
	base, xb := e.input("base", e.vals((2*K+8)*T, 1), 2*K+8, T)
	rs := 4 * (2*K + 8)
	va := e.g.View("va", base, 32, gpu.Shape4(K, T), &[4]int{4, rs, rs * T, rs * T})
	vb := e.g.View("vb", base, 0, gpu.Shape4(K, T), &[4]int{8, rs, rs * T, rs * T})
	oa := e.output("oa", gguf.F32, N, T)
	ob := e.output("ob", gguf.F32, N, T)
	e.g.Do(&gpu.MatMul{W: W, In: va, Out: oa})
	e.g.Do(&gpu.MatMul{W: W, In: vb, Out: ob})
	e.run(0)
	colA := func(_, t int) []float64 { return xb[t*(2*K+8)+8 : t*(2*K+8)+8+K] }
	colB := func(_, t int) []float64 {
		c := make([]float64, K)
		for k := range c {
			c[k] = xb[t*(2*K+8)+2*k]
		}
		return c
	}
	checkProducts(t, "oa", readF(t, oa), productRefs(wt, w, K, N, 1, T, colA))
	checkProducts(t, "ob", readF(t, ob), productRefs(wt, w, K, N, 1, T, colB))
}

// testMatMulID multiplies by experts: F32, Q8_0, Q4_K and Q6_K (the types
// of the expert tensors of real mixtures) at 1, 3 and 17 tokens, and every
// other type of the suite at 3 tokens, so that each type's expert product
// (a kernel build of its own on the GPU backends) runs against its
// reference too.
func testMatMulID(t *testing.T, be gpu.Backend) {
	full := []gguf.TensorType{gguf.F32, gguf.Q8_0, gguf.Q4_K, gguf.Q6_K}
	for _, wt := range activeWeightTypes {
		counts := tokenCounts(3)
		if slices.Contains(full, wt) {
			counts = tokenCounts(1, 3, 17)
		}
		for _, T := range counts {
			for _, shared := range []bool{false, true} {
				t.Run(name(wt, "/T", T, "/shared", shared), func(t *testing.T) {
					K := weightKs(wt)[0]
					const N, E, S = 37, 6, 4
					e := newEnv(t, be, uint64(T)*3+uint64(wt)<<8, T)
					W, w := e.weight("w", wt, 1, K, N, E)
					Sin := S
					if shared {
						Sin = 1
					}
					In, x := e.input("in", e.vals(K*Sin*T, 1), K, Sin, T)
					// Distinct experts per token, some experts unused.
					ids := make([]int, S*T)
					for tt := 0; tt < T; tt++ {
						perm := e.rng.Perm(E)
						copy(ids[tt*S:], perm[:S])
					}
					IDs := e.ints("ids", ids, S, T)
					Out := e.output("out", gguf.F32, N, S, T)
					e.g.Do(&gpu.MatMulID{W: W, In: In, IDs: IDs, Out: Out})
					e.run(0)
					var refs []productRef
					for tt := 0; tt < T; tt++ {
						for s := 0; s < S; s++ {
							si := s
							if shared {
								si = 0
							}
							a := newActRef(wt, x[(si+Sin*tt)*K:(si+Sin*tt+1)*K])
							ex := ids[s+S*tt]
							for n := 0; n < N; n++ {
								refs = append(refs, a.dot(wt, w[(ex*N+n)*K:(ex*N+n+1)*K]))
							}
						}
					}
					checkProducts(t, "out", readF(t, Out), refs)
				})
			}
		}
	}
}
