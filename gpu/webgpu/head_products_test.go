//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// A decode step's batched products rounding their own input rows
// (head_products) give what a quantize_act and a matmul dispatch give,
// bit for bit, for every weight type, with and without subgroups, from
// heads strided apart in their input (MLA's q_nope), rows ending inside a
// workgroup's, and rows of whole 256-value blocks and of 32-value ones.
func TestHeadProductsFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, wt := range weightTypes {
			for _, K := range []int{512, 192} {
				if K%wt.BlockSize() != 0 {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/K%d", mode, wt, K), func(t *testing.T) { headProducts(t, be, wt, K) })
			}
		}
	})
}

func headProducts(t *testing.T, be gpu.Backend, wt gguf.TensorType, K int) {
	const N, B, pad = 67, 3, 8
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(K)))
	w := randomWeight(t, be, rng, "w", wt, gpu.Shape4(K, N, B))
	q, err := be.Alloc("q", gguf.F32, gpu.Shape4(K+pad, B))
	if err != nil {
		t.Fatal(err)
	}
	writeRandom(t, q, rng, (K+pad)*B)
	run := func(fused bool) ([3][]byte, int) {
		webgpu.HeadProducts(be, fused)
		defer webgpu.HeadProducts(be, true)
		out, err := be.Alloc("out", gguf.F32, gpu.Shape4(N, B))
		if err != nil {
			t.Fatal(err)
		}
		g := gpu.NewGraph("heads", 1)
		st := [4]int{4, (K + pad) * 4, (K + pad) * B * 4, (K + pad) * B * 4}
		in := g.View("q_nope", g.Bind("q", q), pad*4, gpu.Shape4(K, B, 1), &st)
		g.Do(&gpu.MatMul{W: g.Bind("w", w), In: in, Out: g.Bind("out", out)})
		return runRead(t, be, g, [3]gpu.Buffer{out, out, out})
	}
	fused, kf := run(true)
	apart, ka := run(false)
	// F32 weights read their input as it is: no rounding to save.
	want := 2
	if wt == gguf.F32 {
		want = 1
	}
	if kf != 1 || ka != want {
		t.Errorf("%d kernels rounding in the products, %d apart: want 1 and %d", kf, ka, want)
	}
	sameBitsAs(t, fused, apart, "products")
}
