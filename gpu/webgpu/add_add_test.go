//go:build cgo || js

package webgpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// A product followed by two Adds (a shared expert's down product, the
// chosen experts' sum, then the residual) is one dispatch in a decode step
// and gives what the three ops apart give bit for bit: into a tensor of
// its own, in place into the residual, and, when the first sum is read
// again later, with only the first Add fused.
func TestProductTwoAdds(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, c := range []struct {
			name            string
			inPlace, reread bool
		}{{"apart-out", false, false}, {"in-place", true, false}, {"sum-read-later", false, true}} {
			for _, wt := range []gguf.TensorType{gguf.Q4_0, gguf.Q6_K, gguf.F16} {
				t.Run(fmt.Sprintf("%s/%s/%s", mode, c.name, wt), func(t *testing.T) {
					productTwoAdds(t, be, wt, c.inPlace, c.reread)
				})
			}
		}
	})
}

func productTwoAdds(t *testing.T, be gpu.Backend, wt gguf.TensorType, inPlace, reread bool) {
	const K, N = 512, 77
	rng := rand.New(rand.NewPCG(uint64(wt), 5))
	alloc := func(name string, n int) gpu.Buffer {
		b, err := be.Alloc(name, gguf.F32, gpu.Shape4(n, 1))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	w := randomWeight(t, be, rng, "w", wt, gpu.Shape4(K, N))
	x := alloc("x", K)
	writeRandom(t, x, rng, K)
	e := alloc("e", N)
	writeRandom(t, e, rng, N)
	run := func(split bool) ([3][]byte, int) {
		// g is the residual: written afresh before each run (the in-place
		// case adds into it).
		gb := alloc("g", N)
		writeRandom(t, gb, rand.New(rand.NewPCG(9, uint64(wt))), N)
		outs := [3]gpu.Buffer{alloc("p", N), alloc("o", N), alloc("t2", N)}
		if inPlace {
			outs[1] = gb
		}
		gr := gpu.NewGraph("two-adds", 1)
		gap := func() {
			if split {
				a := gr.Bind("a", alloc("a", 4))
				gr.Do(&gpu.Scale{In: a, Out: a, S: 2})
			}
		}
		p := gr.Bind("p", outs[0])
		gr.Do(&gpu.MatMul{W: gr.Bind("w", w), In: gr.Bind("x", x), Out: p})
		gap()
		sum := gr.New("t", gguf.F32, N, 1)
		gr.Do(&gpu.Add{A: p, B: gr.Bind("e", e), Out: sum})
		gap()
		g := gr.Bind("g", gb)
		out := g
		if !inPlace {
			out = gr.Bind("o", outs[1])
		}
		gr.Do(&gpu.Add{A: g, B: sum, Out: out})
		if reread {
			gr.Do(&gpu.Scale{In: sum, Out: gr.Bind("t2", outs[2]), S: 0.5})
		}
		return runRead(t, be, gr, outs)
	}
	fused, kf := run(false)
	apart, ka := run(true)
	// Apart: two Scales and two Adds more; when the first sum is read
	// again, the second Add stays a dispatch.
	want := ka - 4
	if reread {
		want = ka - 3
	}
	if kf != want {
		t.Errorf("%d kernels with the ops together, %d apart (two of them Scales): want %d", kf, ka, want)
	}
	sameBitsAs(t, fused, apart, "product", "second sum", "first sum halved")
}
