//go:build cgo || js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// The experts' down products and their weighted sum in one dispatch
// (matmul_id_weighted), with and without the residual add after it, give
// what the separate dispatches give bit for bit, with and without
// subgroups; the op suite checks those against their references.
func TestExpertSumFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, wt := range weightTypes {
			for _, T := range []int{1, 3} {
				for _, add := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%s/T%d/add=%v", mode, wt, T, add), func(t *testing.T) {
						expertSum(t, be, wt, T, add)
					})
				}
			}
		}
	})
}

func expertSum(t *testing.T, be gpu.Backend, wt gguf.TensorType, T int, add bool) {
	const K, N, E, S = 512, 67, 5, 3
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(T)+7))
	alloc := func(name string, typ gguf.TensorType, dims ...int) gpu.Buffer {
		b, err := be.Alloc(name, typ, gpu.Shape4(dims...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	w := randomWeight(t, be, rng, "down", wt, gpu.Shape4(K, N, E))
	x, wts, res := alloc("x", gguf.F32, K, S, T), alloc("w", gguf.F32, S, T), alloc("res", gguf.F32, N, T)
	writeRandom(t, x, rng, K*S*T)
	writeRandom(t, wts, rng, S*T)
	writeRandom(t, res, rng, N*T)
	ids := alloc("ids", gguf.I32, S, T)
	raw := make([]byte, 4*S*T)
	for tok := 0; tok < T; tok++ {
		for s, e := range rng.Perm(E)[:S] {
			binary.LittleEndian.PutUint32(raw[4*(tok*S+s):], uint32(e))
		}
	}
	if err := ids.Write(0, raw); err != nil {
		t.Fatal(err)
	}
	// split puts an op between the product and the sum, which keeps them
	// apart.
	run := func(split bool) ([3][]byte, int) {
		g := gpu.NewGraph("experts", T)
		outs := [3]gpu.Buffer{alloc("d", gguf.F32, N, S, T), alloc("y", gguf.F32, N, T), alloc("f", gguf.F32, N, T)}
		D, Y, F := g.Bind("d", outs[0]), g.Bind("y", outs[1]), g.Bind("f", outs[2])
		g.Do(&gpu.MatMulID{W: g.Bind("down", w), In: g.Bind("x", x), IDs: g.Bind("ids", ids), Out: D})
		if split {
			a := g.Bind("a", alloc("a", gguf.F32, 4))
			g.Do(&gpu.Scale{In: a, Out: a, S: 2})
		}
		g.Do(&gpu.WeightedSum{In: D, Weights: g.Bind("w", wts), Out: Y})
		if add {
			g.Do(&gpu.Add{A: Y, B: g.Bind("res", res), Out: F})
		}
		return runRead(t, be, g, outs)
	}
	fused, kf := run(false)
	apart, ka := run(true)
	if kf != ka-2 {
		t.Errorf("%d kernels with the product and the sum together, %d apart (one of them a Scale): want one dispatch for both", kf, ka)
	}
	sameBitsAs(t, fused, apart, "products", "weighted sum", "sum + residual")
}
