//go:build cgo && !js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// A decode step's chosen and shared experts' gated units in one dispatch
// (moe_gate_up) give what the separate ones give, bit for bit, for every
// weight type, with and without subgroups, rows ending inside a
// workgroup's. (The down products together: TestMoEDownRoundedFused.)
func TestMoESharedFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, wt := range weightTypes {
			t.Run(fmt.Sprintf("%s/%s/gate_up", mode, wt), func(t *testing.T) { moeSharedGateUp(t, be, wt) })
		}
	})
}

const moeK, moeN, moeNS, moeE, moeS = 512, 67, 45, 5, 3

// testBuffers allocates buffers of the fused-kernel tests and fills them
// with random values (experts' ids: distinct ones).
type testBuffers struct {
	t   *testing.T
	be  gpu.Backend
	rng *rand.Rand
}

func (m testBuffers) alloc(name string, typ gguf.TensorType, dims ...int) gpu.Buffer {
	b, err := m.be.Alloc(name, typ, gpu.Shape4(dims...))
	if err != nil {
		m.t.Fatal(err)
	}
	return b
}

func (m testBuffers) random(name string, dims ...int) gpu.Buffer {
	b := m.alloc(name, gguf.F32, dims...)
	writeRandom(m.t, b, m.rng, gpu.Shape4(dims...)[0]*gpu.Shape4(dims...)[1])
	return b
}

func (m testBuffers) ids() gpu.Buffer {
	b := m.alloc("ids", gguf.I32, moeS, 1)
	raw := make([]byte, 4*moeS)
	for s, e := range m.rng.Perm(moeE)[:moeS] {
		binary.LittleEndian.PutUint32(raw[4*s:], uint32(e))
	}
	if err := b.Write(0, raw); err != nil {
		m.t.Fatal(err)
	}
	return b
}

func moeSharedGateUp(t *testing.T, be gpu.Backend, wt gguf.TensorType) {
	m := testBuffers{t, be, rand.New(rand.NewPCG(uint64(wt), 11))}
	gate, up := randomWeight(t, be, m.rng, "gate", wt, gpu.Shape4(moeK, moeN, moeE)), randomWeight(t, be, m.rng, "up", wt, gpu.Shape4(moeK, moeN, moeE))
	sGate, sUp := randomWeight(t, be, m.rng, "sgate", wt, gpu.Shape4(moeK, moeNS)), randomWeight(t, be, m.rng, "sup", wt, gpu.Shape4(moeK, moeNS))
	x, ids := m.random("x", moeK, 1), m.ids()
	// split puts an op between the chosen and the shared experts, which
	// keeps them apart.
	run := func(split bool) ([3][]byte, int) {
		g := gpu.NewGraph("moe", 1)
		outs := [3]gpu.Buffer{m.alloc("f", gguf.F32, moeN, moeS, 1), m.alloc("fs", gguf.F32, moeNS, 1)}
		outs[2] = outs[0]
		in, I := g.Bind("x", x), g.Bind("ids", ids)
		G, U := g.New("g", gguf.F32, moeN, moeS, 1), g.New("u", gguf.F32, moeN, moeS, 1)
		SG, SU := g.New("sg", gguf.F32, moeNS, 1), g.New("su", gguf.F32, moeNS, 1)
		experts := g.Reshape(in, moeK, 1, 1)
		g.Do(&gpu.MatMulID{W: g.Bind("gate", gate), In: experts, IDs: I, Out: G})
		g.Do(&gpu.MatMulID{W: g.Bind("up", up), In: experts, IDs: I, Out: U})
		g.Do(&gpu.SwiGLU{Gate: G, Up: U, Out: g.Bind("f", outs[0])})
		if split {
			a := g.Bind("a", m.alloc("a", gguf.F32, 4))
			g.Do(&gpu.Scale{In: a, Out: a, S: 2})
		}
		g.Do(&gpu.MatMul{W: g.Bind("sgate", sGate), In: in, Out: SG})
		g.Do(&gpu.MatMul{W: g.Bind("sup", sUp), In: in, Out: SU})
		g.Do(&gpu.SwiGLU{Gate: SG, Up: SU, Out: g.Bind("fs", outs[1])})
		return runRead(t, be, g, outs)
	}
	fused, kf := run(false)
	apart, ka := run(true)
	if kf != ka-2 {
		t.Errorf("%d kernels with the experts together, %d apart (one of them a Scale): want one dispatch for both gated units", kf, ka)
	}
	sameBitsAs(t, fused, apart, "chosen experts' silu(gate)·up", "shared experts' silu(gate)·up")
}

// moeSharedDown compares the run fused, in want kernels, and apart.
func moeSharedDown(t *testing.T, be gpu.Backend, wt gguf.TensorType, want int) {
	m := testBuffers{t, be, rand.New(rand.NewPCG(uint64(wt), 12))}
	down, sDown := randomWeight(t, be, m.rng, "down", wt, gpu.Shape4(moeK, moeN, moeE)), randomWeight(t, be, m.rng, "sdown", wt, gpu.Shape4(moeK, moeN))
	h, hs, wts, res, ids := m.random("h", moeK, moeS, 1), m.random("hs", moeK, 1), m.random("w", moeS, 1), m.random("res", moeN, 1), m.ids()
	// split puts an op between the weighted sum and the shared expert,
	// which keeps them apart.
	run := func(split bool) ([3][]byte, int) {
		g := gpu.NewGraph("moe", 1)
		f := m.alloc("f", gguf.F32, moeN, 1)
		outs := [3]gpu.Buffer{f, f, f}
		D, Y := g.New("d", gguf.F32, moeN, moeS, 1), g.New("y", gguf.F32, moeN, 1)
		SD, O := g.New("sd", gguf.F32, moeN, 1), g.New("o", gguf.F32, moeN, 1)
		g.Do(&gpu.MatMulID{W: g.Bind("down", down), In: g.Bind("h", h), IDs: g.Bind("ids", ids), Out: D})
		g.Do(&gpu.WeightedSum{In: D, Weights: g.Bind("w", wts), Out: Y})
		if split {
			a := g.Bind("a", m.alloc("a", gguf.F32, 4))
			g.Do(&gpu.Scale{In: a, Out: a, S: 2})
		}
		g.Do(&gpu.MatMul{W: g.Bind("sdown", sDown), In: g.Bind("hs", hs), Out: SD})
		g.Do(&gpu.Add{A: Y, B: SD, Out: O})
		g.Do(&gpu.Add{A: g.Bind("res", res), B: O, Out: g.Bind("f", outs[0])})
		return runRead(t, be, g, outs)
	}
	fused, kf := run(false)
	apart, ka := run(true)
	if kf != want {
		t.Errorf("%d kernels with the experts together, %d apart: want %d", kf, ka, want)
	}
	sameBitsAs(t, fused, apart, "residual + chosen + shared")
}
