//go:build cgo || js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// The feed-forward's gate and up products in one dispatch (matmul_gate_up)
// give what a dispatch each gives bit for bit, whichever of the two comes
// first, with and without subgroups: the products alone are what the op
// suite checks against its references.
func TestGateUpFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, wt := range weightTypes {
			for _, T := range []int{1, 3} {
				for _, upFirst := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%s/T%d/upFirst=%v", mode, wt, T, upFirst), func(t *testing.T) {
						gateUp(t, be, wt, T, upFirst)
					})
				}
			}
		}
	})
}

// bothSubgroupModes runs f on a backend with subgroups (where the adapter
// has them) and on one without; mode names which, for subtest names.
func bothSubgroupModes(t *testing.T, f func(be gpu.Backend, mode string)) {
	for _, noSub := range []bool{false, true} {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: noSub})
		if err != nil {
			t.Fatal(err)
		}
		f(be, fmt.Sprintf("subgroups=%v", !noSub))
		be.Close()
	}
}

func gateUp(t *testing.T, be gpu.Backend, wt gguf.TensorType, T int, upFirst bool) {
	const K, N = 512, 67
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(T)))
	alloc := func(name string, dims ...int) gpu.Buffer {
		b, err := be.Alloc(name, gguf.F32, gpu.Shape4(dims...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	wg, wu, x := randomWeight(t, be, rng, "gate", wt, gpu.Shape4(K, N)), randomWeight(t, be, rng, "up", wt, gpu.Shape4(K, N)), alloc("x", K, T)
	writeRandom(t, x, rng, K*T)
	// split puts an op between the products, which keeps them apart.
	run := func(split bool) ([3][]byte, int) {
		g := gpu.NewGraph("ffn", T)
		outs := [3]gpu.Buffer{alloc("g", N, T), alloc("u", N, T), alloc("s", N, T)}
		in, G, U, S := g.Bind("x", x), g.Bind("g", outs[0]), g.Bind("u", outs[1]), g.Bind("s", outs[2])
		products := []gpu.Op{&gpu.MatMul{W: g.Bind("gate", wg), In: in, Out: G}, &gpu.MatMul{W: g.Bind("up", wu), In: in, Out: U}}
		if upFirst {
			products[0], products[1] = products[1], products[0]
		}
		g.Do(products[0])
		if split {
			a := g.Bind("a", alloc("a", 4))
			g.Do(&gpu.Scale{In: a, Out: a, S: 2})
		}
		g.Do(products[1])
		g.Do(&gpu.SwiGLU{Gate: G, Up: U, Out: S})
		return runRead(t, be, g, outs)
	}
	fused, kf := run(false)
	apart, ka := run(true)
	if kf != ka-2 {
		t.Errorf("%d kernels with the products together, %d apart (one of them a Scale): want one dispatch for both", kf, ka)
	}
	sameBits(t, fused, apart)
}

// runRead compiles and runs g and reads back outs, returning them and the
// program's kernel count.
func runRead(t *testing.T, be gpu.Backend, g *gpu.Graph, outs [3]gpu.Buffer) ([3][]byte, int) {
	t.Helper()
	p, err := be.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(gpu.Params{}); err != nil {
		t.Fatal(err)
	}
	var got [3][]byte
	for i, b := range outs {
		got[i] = make([]byte, gpu.Bytes(b.Type(), b.Shape()))
		if err := b.Read(0, got[i]); err != nil {
			t.Fatal(err)
		}
	}
	return got, p.Kernels()
}

// sameBits compares the gate, up and SwiGLU outputs of the fused and the
// separate dispatches bit for bit.
func sameBits(t *testing.T, fused, apart [3][]byte) {
	t.Helper()
	sameBitsAs(t, fused, apart, "gate", "up", "silu(gate)·up")
}

// sameBitsAs compares three outputs, named by what, bit for bit.
func sameBitsAs(t *testing.T, fused, apart [3][]byte, what ...string) {
	t.Helper()
	for i, what := range what {
		for j := 0; j < len(fused[i])/4; j++ {
			a, b := fused[i][4*j:4*j+4], apart[i][4*j:4*j+4]
			if string(a) != string(b) {
				t.Fatalf("%s[%d]: %g fused, %g apart", what, j,
					math.Float32frombits(binary.LittleEndian.Uint32(a)), math.Float32frombits(binary.LittleEndian.Uint32(b)))
			}
		}
	}
}

// randomWeight uploads normal random weights of type wt and shape.
func randomWeight(t *testing.T, be gpu.Backend, rng *rand.Rand, name string, wt gguf.TensorType, shape [4]int) gpu.Buffer {
	t.Helper()
	b, err := be.Weight(name, wt, shape, randomWeightBytes(t, rng, wt, shape))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// randomWeightBytes is normal random weights of type wt and shape in
// that type's layout.
func randomWeightBytes(t *testing.T, rng *rand.Rand, wt gguf.TensorType, shape [4]int) []byte {
	t.Helper()
	f := make([]float32, shape[0]*shape[1]*shape[2]*shape[3])
	for i := range f {
		f[i] = float32(rng.NormFloat64())
	}
	data := make([]byte, gpu.Bytes(wt, shape))
	if err := quant.Quantize(wt, f, data); err != nil {
		t.Fatal(err)
	}
	return data
}

// writeRandom fills an F32 buffer of n values with normal random numbers.
func writeRandom(t *testing.T, b gpu.Buffer, rng *rand.Rand, n int) {
	t.Helper()
	if err := b.Write(0, randomFloatBytes(rng, n)); err != nil {
		t.Fatal(err)
	}
}

// randomFloatBytes is n normal random numbers as F32 bytes.
func randomFloatBytes(rng *rand.Rand, n int) []byte {
	raw := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(float32(rng.NormFloat64())))
	}
	return raw
}

// The experts' gate and up products and their SwiGLU in one dispatch
// (matmul_id_gate_up) give what three dispatches give, bit for bit, for an
// input shared by a token's experts or one row per expert.
func TestExpertGateUpFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, wt := range weightTypes {
			for _, shared := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/shared=%v", mode, wt, shared), func(t *testing.T) {
					expertGateUp(t, be, wt, shared)
				})
			}
		}
	})
}

func expertGateUp(t *testing.T, be gpu.Backend, wt gguf.TensorType, shared bool) {
	const K, N, E, S, T = 256, 37, 5, 3, 2
	rng := rand.New(rand.NewPCG(uint64(wt), 77))
	alloc := func(name string, typ gguf.TensorType, dims ...int) gpu.Buffer {
		b, err := be.Alloc(name, typ, gpu.Shape4(dims...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	Sin := S
	if shared {
		Sin = 1
	}
	wg, wu := randomWeight(t, be, rng, "gate", wt, gpu.Shape4(K, N, E)), randomWeight(t, be, rng, "up", wt, gpu.Shape4(K, N, E))
	x, ids := alloc("x", gguf.F32, K, Sin, T), alloc("ids", gguf.I32, S, T)
	writeRandom(t, x, rng, K*Sin*T)
	raw := make([]byte, 4*S*T)
	for tt := 0; tt < T; tt++ {
		for s, e := range rng.Perm(E)[:S] {
			binary.LittleEndian.PutUint32(raw[4*(s+S*tt):], uint32(e))
		}
	}
	if err := ids.Write(0, raw); err != nil {
		t.Fatal(err)
	}
	run := func(split bool) ([3][]byte, int) {
		g := gpu.NewGraph("experts", T)
		outs := [3]gpu.Buffer{alloc("g", gguf.F32, N, S, T), alloc("u", gguf.F32, N, S, T), alloc("s", gguf.F32, N, S, T)}
		in, id := g.Bind("x", x), g.Bind("ids", ids)
		G, U, F := g.Bind("g", outs[0]), g.Bind("u", outs[1]), g.Bind("s", outs[2])
		g.Do(&gpu.MatMulID{W: g.Bind("gate", wg), In: in, IDs: id, Out: G})
		if split {
			a := g.Bind("a", alloc("a", gguf.F32, 4))
			g.Do(&gpu.Scale{In: a, Out: a, S: 2})
		}
		g.Do(&gpu.MatMulID{W: g.Bind("up", wu), In: in, IDs: id, Out: U})
		g.Do(&gpu.SwiGLU{Gate: G, Up: U, Out: F})
		return runRead(t, be, g, outs)
	}
	fused, kf := run(false)
	apart, ka := run(true)
	if kf != ka-3 {
		t.Errorf("%d kernels with the products together, %d apart (one of them a Scale): want one dispatch for both and the SwiGLU", kf, ka)
	}
	sameBits(t, fused, apart)
}
