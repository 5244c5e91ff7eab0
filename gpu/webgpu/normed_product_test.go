//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// A decode step's RMSNorm and the products of its output in one dispatch
// (normed_product: one product, or two as MLA's q_a and kv_a) give what
// the rmsnorm_round (or, for F32 weights, rmsnorm) and matmul or
// matmul_qkv dispatches give, bit for bit, for every weight type, with
// and without subgroups, rows ending inside a workgroup's, and rows of
// whole 256-value blocks, of 32-value ones and of an odd length.
func TestNormedProductFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, wt := range weightTypes {
			for _, K := range []int{768, 192, 77} {
				for _, two := range []bool{false, true} {
					if K%wt.BlockSize() != 0 {
						continue
					}
					t.Run(fmt.Sprintf("%s/%s/K%d/two=%v", mode, wt, K, two), func(t *testing.T) { normedProduct(t, be, wt, K, two) })
				}
			}
		}
	})
}

func normedProduct(t *testing.T, be gpu.Backend, wt gguf.TensorType, K int, two bool) {
	const N, N2 = 67, 45
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(K)+3))
	m := testBuffers{t, be, rng}
	alloc := func(name string, dims ...int) gpu.Buffer { return m.alloc(name, gguf.F32, dims...) }
	w, w2 := randomWeight(t, be, rng, "w", wt, gpu.Shape4(K, N)), randomWeight(t, be, rng, "w2", wt, gpu.Shape4(K, N2))
	x, nw := m.random("x", K, 1), m.random("nw", K)
	// split puts an op between the norm and the product, which keeps them
	// apart.
	build := func(split bool) (gpu.Program, [2]gpu.Buffer) {
		out := [2]gpu.Buffer{alloc("out", N, 1), alloc("out2", N2, 1)}
		g := gpu.NewGraph("normed", 1)
		h := g.New("h", gguf.F32, K, 1)
		g.Do(&gpu.RMSNorm{In: g.Bind("x", x), Weight: g.Bind("nw", nw), Out: h, Eps: 1e-5})
		if split {
			a := g.Bind("a", alloc("a", 4))
			g.Do(&gpu.Scale{In: a, Out: a, S: 2})
		}
		g.Do(&gpu.MatMul{W: g.Bind("w", w), In: h, Out: g.Bind("out", out[0])})
		if two {
			g.Do(&gpu.MatMul{W: g.Bind("w2", w2), In: h, Out: g.Bind("out2", out[1])})
		}
		p, err := be.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		return p, out
	}
	fused, fo := build(false)
	apart, ao := build(true)
	if kf, ka := fused.Kernels(), apart.Kernels(); kf != 1 || ka != 3 {
		t.Errorf("%d kernels with the norm in the product, %d apart (one of them a Scale): want 1 and 3", kf, ka)
	}
	// A norm's factor a last bit off moves few products: many rows.
	for range 16 {
		writeRandom(t, x, rng, K)
		var got [2][3][]byte
		for i, r := range []struct {
			p   gpu.Program
			out [2]gpu.Buffer
		}{{fused, fo}, {apart, ao}} {
			if err := r.p.Run(gpu.Params{}); err != nil {
				t.Fatal(err)
			}
			for j, b := range r.out {
				got[i][j] = make([]byte, gpu.Bytes(b.Type(), b.Shape()))
				if err := b.Read(0, got[i][j]); err != nil {
					t.Fatal(err)
				}
			}
		}
		sameBitsAs(t, got[0], got[1], "products", "second products")
	}
}

// A norm whose output a later product also reads, taken with an F32
// product (a mixture of experts' router) by normed_product, which then
// writes the norm's output and its rounded copy as well, gives the
// separate dispatches' results bit for bit: the router's and the later
// product's, for every type of the later product's weights, with the
// norm's output shared out among few workgroups or many (72 experts, more
// workgroups than 256-value blocks). A router of quantized weights stays
// apart from the norm. Without Options.SelfRounding too, where the
// router's run is the only one normed_product takes.
func TestNormedRouterFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, wt := range weightTypes {
			for _, rt := range []gguf.TensorType{gguf.F32, gguf.Q8_0} {
				t.Run(fmt.Sprintf("%s/%s/router=%s", mode, wt, rt), func(t *testing.T) { normedRouter(t, be, rt, wt, 16) })
			}
		}
	})
	be := open(t)
	defer be.Close()
	for _, wt := range weightTypes {
		t.Run(fmt.Sprintf("default/%s/router=F32x72", wt), func(t *testing.T) { normedRouter(t, be, gguf.F32, wt, 72) })
	}
}

func normedRouter(t *testing.T, be gpu.Backend, rt, wt gguf.TensorType, E int) {
	const K, N = 512, 67
	rng := rand.New(rand.NewPCG(uint64(wt), 17))
	m := testBuffers{t, be, rng}
	alloc := func(name string, dims ...int) gpu.Buffer { return m.alloc(name, gguf.F32, dims...) }
	router, w := randomWeight(t, be, rng, "router", rt, gpu.Shape4(K, E)), randomWeight(t, be, rng, "w", wt, gpu.Shape4(K, N))
	x, nw := m.random("x", K, 1), m.random("nw", K)
	// split puts an op between the norm and the router, which keeps them
	// apart; another stands between the router and the later product, as
	// the routing does in a model.
	run := func(split bool) ([3][]byte, int) {
		logits, out := alloc("logits", E, 1), alloc("out", N, 1)
		g := gpu.NewGraph("normed", 1)
		h := g.New("h", gguf.F32, K, 1)
		a := g.Bind("a", alloc("a", 4))
		g.Do(&gpu.RMSNorm{In: g.Bind("x", x), Weight: g.Bind("nw", nw), Out: h, Eps: 1e-5})
		if split {
			g.Do(&gpu.Scale{In: a, Out: a, S: 2})
		}
		g.Do(&gpu.MatMul{W: g.Bind("router", router), In: h, Out: g.Bind("logits", logits)})
		g.Do(&gpu.Scale{In: a, Out: a, S: 2})
		g.Do(&gpu.MatMul{W: g.Bind("w", w), In: h, Out: g.Bind("out", out)})
		return runRead(t, be, g, [3]gpu.Buffer{logits, out, out})
	}
	fused, kf := run(false)
	apart, ka := run(true)
	want := ka - 2
	if rt != gguf.F32 {
		want = ka - 1
	}
	if kf != want {
		t.Errorf("%d kernels with the norm and the router together, %d apart (one of them a Scale): want %d", kf, ka, want)
	}
	sameBitsAs(t, fused, apart, "router", "later product")
}
