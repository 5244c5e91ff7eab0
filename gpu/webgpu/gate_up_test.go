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
	for _, noSub := range []bool{false, true} {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: noSub})
		if err != nil {
			t.Fatal(err)
		}
		for _, wt := range weightTypes {
			for _, T := range []int{1, 3} {
				for _, upFirst := range []bool{false, true} {
					t.Run(fmt.Sprintf("subgroups=%v/%s/T%d/upFirst=%v", !noSub, wt, T, upFirst), func(t *testing.T) {
						gateUp(t, be, wt, T, upFirst)
					})
				}
			}
		}
		be.Close()
	}
}

func gateUp(t *testing.T, be gpu.Backend, wt gguf.TensorType, T int, upFirst bool) {
	const K, N = 512, 67
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(T)))
	weight := func(name string) gpu.Buffer {
		f := make([]float32, K*N)
		for i := range f {
			f[i] = float32(rng.NormFloat64())
		}
		shape := gpu.Shape4(K, N)
		data := make([]byte, gpu.Bytes(wt, shape))
		if err := quant.Quantize(wt, f, data); err != nil {
			t.Fatal(err)
		}
		b, err := be.Weight(name, wt, shape, data)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	alloc := func(name string, dims ...int) gpu.Buffer {
		b, err := be.Alloc(name, gguf.F32, gpu.Shape4(dims...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	wg, wu, x := weight("gate"), weight("up"), alloc("x", K, T)
	raw := make([]byte, 4*K*T)
	for i := 0; i < K*T; i++ {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(float32(rng.NormFloat64())))
	}
	if err := x.Write(0, raw); err != nil {
		t.Fatal(err)
	}
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
		p, err := be.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Run(gpu.Params{}); err != nil {
			t.Fatal(err)
		}
		var got [3][]byte
		for i, b := range outs {
			got[i] = make([]byte, 4*N*T)
			if err := b.Read(0, got[i]); err != nil {
				t.Fatal(err)
			}
		}
		return got, p.Kernels()
	}
	fused, kf := run(false)
	apart, ka := run(true)
	if kf != ka-2 {
		t.Errorf("%d kernels with the products together, %d apart (one of them a Scale): want one dispatch for both", kf, ka)
	}
	for i, what := range []string{"gate", "up", "silu(gate)·up"} {
		for j := 0; j < N*T; j++ {
			a, b := fused[i][4*j:4*j+4], apart[i][4*j:4*j+4]
			if string(a) != string(b) {
				t.Fatalf("%s[%d]: %g in one dispatch, %g in two", what, j,
					math.Float32frombits(binary.LittleEndian.Uint32(a)), math.Float32frombits(binary.LittleEndian.Uint32(b)))
			}
		}
	}
}
