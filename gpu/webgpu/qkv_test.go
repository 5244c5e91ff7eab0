//go:build cgo || js

package webgpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// The query, key and value products of a decode step in one dispatch
// (matmul_qkv) give what a dispatch each gives bit for bit, for three
// weights of one type and for values' weights of another type (Q6_K beside
// Q4_K in the Q4_K_M mix; Q8_0 beside the 32-value types), with and
// without subgroups. Values whose type rounds the input otherwise stay a
// product apart.
func TestQKVFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, wt := range weightTypes {
			for i, vt := range []gguf.TensorType{wt, gguf.Q6_K, gguf.Q8_0} {
				if i > 0 && vt == wt {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/v=%s", mode, wt, vt), func(t *testing.T) {
					qkv(t, be, wt, vt)
				})
			}
		}
	})
}

func qkv(t *testing.T, be gpu.Backend, wt, vt gguf.TensorType) {
	const K, NQ, NK = 512, 77, 23
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(vt)))
	alloc := func(name string, dims ...int) gpu.Buffer {
		b, err := be.Alloc(name, gguf.F32, gpu.Shape4(dims...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	wq := randomWeight(t, be, rng, "wq", wt, gpu.Shape4(K, NQ))
	wk := randomWeight(t, be, rng, "wk", wt, gpu.Shape4(K, NK))
	wv := randomWeight(t, be, rng, "wv", vt, gpu.Shape4(K, NK))
	x := alloc("x", K, 1)
	writeRandom(t, x, rng, K)
	// split puts an op between the products, which keeps them apart.
	run := func(split bool) ([3][]byte, int) {
		g := gpu.NewGraph("attention-in", 1)
		outs := [3]gpu.Buffer{alloc("q", NQ, 1), alloc("k", NK, 1), alloc("v", NK, 1)}
		in := g.Bind("x", x)
		ws := []gpu.Buffer{wq, wk, wv}
		for i, name := range []string{"q", "k", "v"} {
			if split && i > 0 {
				a := g.Bind("a", alloc("a", 4))
				g.Do(&gpu.Scale{In: a, Out: a, S: 2})
			}
			g.Do(&gpu.MatMul{W: g.Bind("w"+name, ws[i]), In: in, Out: g.Bind(name, outs[i])})
		}
		return runRead(t, be, g, outs)
	}
	fused, kf := run(false)
	apart, ka := run(true)
	// Apart: two Scales and a product each; together, one dispatch for the
	// products of one type.
	want := ka - 4
	if vt != wt && roundsAs(wt) != roundsAs(vt) {
		want = ka - 3
	}
	if kf > want {
		t.Errorf("%d kernels with the products together, %d apart (two of them Scales): want at most %d", kf, ka, want)
	}
	sameBits(t, fused, apart)
}

// roundsAs names how a product of weights of type wt rounds its input
// before the sums: as llama.cpp's vec_dot_type, Q8_K for the k-quants,
// Q8_0 for the 32-value types (as integers where the matvecs take integer
// dot products: the k-quants, Q4_0 and Q8_0; else as floats), itself for
// F16 and F32.
func roundsAs(wt gguf.TensorType) string {
	switch wt {
	case gguf.Q4_K, gguf.Q5_K, gguf.Q6_K:
		return "q8_k integers"
	case gguf.Q4_0, gguf.Q8_0:
		return "q8_0 integers"
	case gguf.Q4_1, gguf.Q5_0, gguf.Q5_1:
		return "q8_0"
	}
	return wt.String()
}
