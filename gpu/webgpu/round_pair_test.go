//go:build cgo || js

package webgpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// When a decode step rounds a product's input, the next product's input,
// if final already and rounded alike, is rounded in the same dispatch (a
// shared expert's beside the chosen experts'); both products then give
// what they give with the roundings apart, bit for bit. Inputs rounded
// otherwise (another weight type's mode) or written in between are not
// paired.
func TestRoundPairs(t *testing.T) {
	for _, noSub := range []bool{false, true} {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: noSub})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ a, b gguf.TensorType }{
			{gguf.Q4_0, gguf.Q8_0}, {gguf.Q4_K, gguf.Q6_K}, {gguf.F16, gguf.F16}, {gguf.Q4_0, gguf.Q4_K},
		} {
			t.Run(fmt.Sprintf("subgroups=%v/%s+%s", !noSub, c.a, c.b), func(t *testing.T) {
				roundPair(t, be, c.a, c.b)
			})
		}
		be.Close()
	}
}

func roundPair(t *testing.T, be gpu.Backend, at, bt gguf.TensorType) {
	const K1, K2, N = 512, 768, 45
	rng := rand.New(rand.NewPCG(uint64(at), uint64(bt)))
	alloc := func(name string, n int) gpu.Buffer {
		b, err := be.Alloc(name, gguf.F32, gpu.Shape4(n, 1))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	wa := randomWeight(t, be, rng, "wa", at, gpu.Shape4(K1, N))
	wb := randomWeight(t, be, rng, "wb", bt, gpu.Shape4(K2, N))
	xa, xb := alloc("xa", K1), alloc("xb", K2)
	writeRandom(t, xa, rng, K1)
	writeRandom(t, xb, rng, K2)
	run := func(split bool) ([3][]byte, int) {
		g := gpu.NewGraph("round-pair", 1)
		outs := [3]gpu.Buffer{alloc("a", N), alloc("b", N), alloc("unused", 1)}
		// Both inputs come out of ops of the step, as activations do.
		a := g.New("xa.act", gguf.F32, K1, 1)
		b := g.New("xb.act", gguf.F32, K2, 1)
		g.Do(&gpu.Scale{In: g.Bind("xa", xa), Out: a, S: 1.5})
		g.Do(&gpu.Scale{In: g.Bind("xb", xb), Out: b, S: 0.75})
		g.Do(&gpu.MatMul{W: g.Bind("wa", wa), In: a, Out: g.Bind("a", outs[0])})
		if split {
			// Written again (unchanged) after the first product's rounding:
			// the second input is no longer final there.
			g.Do(&gpu.Scale{In: b, Out: b, S: 1})
		}
		g.Do(&gpu.MatMul{W: g.Bind("wb", wb), In: b, Out: g.Bind("b", outs[1])})
		return runRead(t, be, g, outs)
	}
	paired, kp := run(false)
	apart, ka := run(true)
	// Apart: the Scale and the second input's own rounding more, where the
	// two round alike.
	want := ka - 2
	if roundsAs(at) != roundsAs(bt) {
		want = ka - 1
	}
	if kp != want {
		t.Errorf("%d kernels with the roundings paired, %d apart: want %d", kp, ka, want)
	}
	sameBitsAs(t, paired, apart, "first product", "second product")
}
