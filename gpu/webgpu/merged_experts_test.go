//go:build cgo || js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// A merged expert stack (llama.cpp's ffn_gate_up_exps {K, 2F, E}: each
// expert's F gate rows, then its F up rows) read through one product and
// the SwiGLU of its halves takes the fused kernels of the split stacks
// (matmul_id_gate_up; with a shared expert in a decode step,
// moe_gate_up), one dispatch for the three ops, and gives the split
// stacks' results bit for bit: the same rows summed in the same order.
func TestMergedExpertsFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, wt := range []gguf.TensorType{gguf.F16, gguf.Q8_0, gguf.Q4_0, gguf.Q4_K, gguf.Q6_K} {
			for _, T := range []int{1, 3} {
				t.Run(fmt.Sprintf("%s/%s/T%d", mode, wt, T), func(t *testing.T) { mergedExperts(t, be, wt, T, false) })
			}
			t.Run(fmt.Sprintf("%s/%s/shared-expert", mode, wt), func(t *testing.T) { mergedExperts(t, be, wt, 1, true) })
		}
	})
}

// expertStacks uploads random gate and up stacks {K, F, E} of type wt and
// the merged stack {K, 2F, E} of the same rows.
func expertStacks(t *testing.T, be gpu.Backend, rng *rand.Rand, wt gguf.TensorType, K, F, E int) (gate, up, merged gpu.Buffer) {
	t.Helper()
	stack := func() []byte {
		f := make([]float32, K*F*E)
		for i := range f {
			f[i] = float32(rng.NormFloat64())
		}
		data := make([]byte, gpu.Bytes(wt, gpu.Shape4(K, F, E)))
		if err := quant.Quantize(wt, f, data); err != nil {
			t.Fatal(err)
		}
		return data
	}
	g, u := stack(), stack()
	per := wt.RowBytes(K) * F
	m := make([]byte, 0, 2*len(g))
	for e := range E {
		m = append(append(m, g[e*per:(e+1)*per]...), u[e*per:(e+1)*per]...)
	}
	upload := func(name string, shape [4]int, data []byte) gpu.Buffer {
		b, err := be.Weight(name, wt, shape, data)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return upload("gate", gpu.Shape4(K, F, E), g), upload("up", gpu.Shape4(K, F, E), u), upload("gate_up", gpu.Shape4(K, 2*F, E), m)
}

func mergedExperts(t *testing.T, be gpu.Backend, wt gguf.TensorType, T int, shared bool) {
	const K, F, E, S, FS = 256, 64, 5, 3, 32
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(T)))
	alloc := func(name string, typ gguf.TensorType, dims ...int) gpu.Buffer {
		b, err := be.Alloc(name, typ, gpu.Shape4(dims...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	wg, wu, wm := expertStacks(t, be, rng, wt, K, F, E)
	sg, su := randomWeight(t, be, rng, "sgate", wt, gpu.Shape4(K, FS)), randomWeight(t, be, rng, "sup", wt, gpu.Shape4(K, FS))
	x, ids := alloc("x", gguf.F32, K, T), alloc("ids", gguf.I32, S, T)
	writeRandom(t, x, rng, K*T)
	raw := make([]byte, 4*S*T)
	for tt := range T {
		for s, e := range rng.Perm(E)[:S] {
			binary.LittleEndian.PutUint32(raw[4*(s+S*tt):], uint32(e))
		}
	}
	if err := ids.Write(0, raw); err != nil {
		t.Fatal(err)
	}
	run := func(merged bool) ([3][]byte, int) {
		g := gpu.NewGraph("experts", T)
		outs := [3]gpu.Buffer{alloc("f", gguf.F32, F, S, T), alloc("fs", gguf.F32, FS, T)}
		outs[2] = outs[0]
		in, id := g.Bind("x", x), g.Bind("ids", ids)
		rows := g.Reshape(in, K, 1, T)
		f := g.Bind("f", outs[0])
		if merged {
			gu := g.New("gu", gguf.F32, 2*F, S, T)
			g.Do(&gpu.MatMulID{W: g.Bind("gate_up", wm), In: rows, IDs: id, Out: gu})
			half := gpu.Shape4(F, S, T)
			g.Do(&gpu.SwiGLU{Gate: g.View("g", gu, 0, half, &gu.Stride), Up: g.View("u", gu, 4*F, half, &gu.Stride), Out: f})
		} else {
			G, U := g.New("g", gguf.F32, F, S, T), g.New("u", gguf.F32, F, S, T)
			g.Do(&gpu.MatMulID{W: g.Bind("gate", wg), In: rows, IDs: id, Out: G})
			g.Do(&gpu.MatMulID{W: g.Bind("up", wu), In: rows, IDs: id, Out: U})
			g.Do(&gpu.SwiGLU{Gate: G, Up: U, Out: f})
		}
		if shared {
			SG, SU := g.New("sg", gguf.F32, FS, T), g.New("su", gguf.F32, FS, T)
			g.Do(&gpu.MatMul{W: g.Bind("sgate", sg), In: in, Out: SG})
			g.Do(&gpu.MatMul{W: g.Bind("sup", su), In: in, Out: SU})
			g.Do(&gpu.SwiGLU{Gate: SG, Up: SU, Out: g.Bind("fs", outs[1])})
		}
		return runRead(t, be, g, outs)
	}
	merged, km := run(true)
	split, ks := run(false)
	t.Logf("%d kernels merged, %d split", km, ks)
	if km != ks {
		t.Errorf("%d kernels with the merged stack, %d with the split ones: want the same fused kernels", km, ks)
	}
	sameBitsAs(t, merged, split, "silu(gate)·up", "shared silu(gate)·up")
}
