//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// A decode product whose output the next product reads rounded writes
// that rounded copy itself (matmul_round) and gives what a matmul and a
// quantize_act dispatch give, bit for bit: its own output and the next
// product's, for every weight type on either side, with and without
// subgroups, for a reader of the whole output and for per-head readers of
// a strided part of it (MLA's k_b reading q_nope out of q), and for the
// SwiGLU of a gate and up product in one dispatch (matmul_gate_up_round)
// read by the down product.
func TestRoundingProductFused(t *testing.T) {
	for _, noSub := range []bool{false, true} {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: noSub})
		if err != nil {
			t.Fatal(err)
		}
		mode := fmt.Sprintf("subgroups=%v", !noSub)
		for _, wt := range weightTypes {
			t.Run(fmt.Sprintf("%s/whole/%s-then-Q8_0", mode, wt), func(t *testing.T) { roundingProduct(t, be, wt, gguf.Q8_0, false) })
			t.Run(fmt.Sprintf("%s/whole/Q4_0-then-%s", mode, wt), func(t *testing.T) { roundingProduct(t, be, gguf.Q4_0, wt, false) })
			if wt.BlockSize() <= 32 {
				t.Run(fmt.Sprintf("%s/heads/Q8_0-then-%s", mode, wt), func(t *testing.T) { roundingProduct(t, be, gguf.Q8_0, wt, true) })
			}
			t.Run(fmt.Sprintf("%s/gate-up/%s-then-Q4_0", mode, wt), func(t *testing.T) { roundingGateUp(t, be, wt, gguf.Q4_0) })
			t.Run(fmt.Sprintf("%s/gate-up/Q8_0-then-%s", mode, wt), func(t *testing.T) { roundingGateUp(t, be, gguf.Q8_0, wt) })
		}
		be.Close()
	}
}

// roundingProduct runs a product of weights pt and then one of weights ct
// reading its output, fused and apart, and compares both outputs. heads:
// both products are batched by 3 heads, the second reading 64 values of
// each head's 96, 32 in.
func roundingProduct(t *testing.T, be gpu.Backend, pt, ct gguf.TensorType, heads bool) {
	K, N, B, K2, N2, off := 256, 256, 1, 256, 40, 0
	if heads {
		K, N, B, K2, off = 64, 96, 3, 64, 32
	}
	rng := rand.New(rand.NewPCG(uint64(pt), uint64(ct)))
	w1 := randomWeight(t, be, rng, "w1", pt, gpu.Shape4(K, N, B))
	w2 := randomWeight(t, be, rng, "w2", ct, gpu.Shape4(K2, N2, B))
	x, err := be.Alloc("x", gguf.F32, gpu.Shape4(K, B))
	if err != nil {
		t.Fatal(err)
	}
	writeRandom(t, x, rng, K*B)
	run := func(fused bool) ([3][]byte, int) {
		webgpu.RoundingProducts(be, fused)
		defer webgpu.RoundingProducts(be, true)
		out1, err1 := be.Alloc("out1", gguf.F32, gpu.Shape4(N, B))
		out2, err2 := be.Alloc("out2", gguf.F32, gpu.Shape4(N2, B))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		g := gpu.NewGraph("rounding", 1)
		mid := g.New("mid", gguf.F32, N, B)
		in := mid
		if heads {
			st := [4]int{4, N * 4, N * B * 4, N * B * 4}
			in = g.View("mid_part", mid, off*4, gpu.Shape4(K2, B, 1), &st)
		}
		g.Do(&gpu.MatMul{W: g.Bind("w1", w1), In: g.Bind("x", x), Out: mid})
		g.Do(&gpu.MatMul{W: g.Bind("w2", w2), In: in, Out: g.Bind("out2", out2)})
		// After the reader: a Copy reading it first would take the rounding.
		g.Do(&gpu.Copy{In: mid, Out: g.Bind("out1", out1)})
		return runRead(t, be, g, [3]gpu.Buffer{out1, out2, out2})
	}
	fused, kf := run(true)
	apart, ka := run(false)
	want := ka - 1
	if m := ct.BlockSize(); ct == gguf.F32 || m > 32 {
		want = ka // F32 reads its input as it is; K-quants round in blocks of 256
	}
	if kf != want {
		t.Errorf("%d kernels with the rounding product, %d apart: want %d", kf, ka, want)
	}
	sameBitsAs(t, fused, apart, "first product", "second product")
}

// roundingGateUp runs a feed-forward's gate and up products (weights gt),
// their SwiGLU and the down product (weights dt), fused and apart, and
// compares the SwiGLU and the down product's output.
func roundingGateUp(t *testing.T, be gpu.Backend, gt, dt gguf.TensorType) {
	const K, N, N2 = 256, 256, 40
	rng := rand.New(rand.NewPCG(uint64(gt), uint64(dt)+100))
	wg, wu := randomWeight(t, be, rng, "gate", gt, gpu.Shape4(K, N)), randomWeight(t, be, rng, "up", gt, gpu.Shape4(K, N))
	wd := randomWeight(t, be, rng, "down", dt, gpu.Shape4(N, N2))
	x, err := be.Alloc("x", gguf.F32, gpu.Shape4(K))
	if err != nil {
		t.Fatal(err)
	}
	writeRandom(t, x, rng, K)
	run := func(fused bool) ([3][]byte, int) {
		webgpu.RoundingProducts(be, fused)
		defer webgpu.RoundingProducts(be, true)
		act, err1 := be.Alloc("act", gguf.F32, gpu.Shape4(N))
		out, err2 := be.Alloc("out", gguf.F32, gpu.Shape4(N2))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		g := gpu.NewGraph("ffn", 1)
		in := g.Bind("x", x)
		gate, up, sw := g.New("gate", gguf.F32, N), g.New("up", gguf.F32, N), g.New("sw", gguf.F32, N)
		g.Do(&gpu.MatMul{W: g.Bind("gate.w", wg), In: in, Out: gate})
		g.Do(&gpu.MatMul{W: g.Bind("up.w", wu), In: in, Out: up})
		g.Do(&gpu.SwiGLU{Gate: gate, Up: up, Out: sw})
		g.Do(&gpu.MatMul{W: g.Bind("down.w", wd), In: sw, Out: g.Bind("out", out)})
		g.Do(&gpu.Copy{In: sw, Out: g.Bind("act", act)})
		return runRead(t, be, g, [3]gpu.Buffer{act, out, out})
	}
	fused, kf := run(true)
	apart, ka := run(false)
	// The down products of integer dots (Q4_0, Q8_0) read their input
	// packed by a dispatch of its own, fused or not.
	want := ka - 1
	if dt == gguf.F32 || dt.BlockSize() > 32 || dt == gguf.Q4_0 || dt == gguf.Q8_0 {
		want = ka
	}
	if kf != want {
		t.Errorf("%d kernels with the rounding gated unit, %d apart: want %d", kf, ka, want)
	}
	sameBitsAs(t, fused, apart, "SwiGLU", "down product")
}

// In whole models' decode steps, the products that round their output
// (MLA's v_b and q_b, dense gated units whose down product reads floats,
// the chosen and shared experts' gated units) and the experts' down
// products after them in one dispatch (moe_down_rounded) leave every
// logit as it was, bit for bit, in fewer kernels. (qwen3moe, with no
// shared expert, takes none of them.)
func TestRoundingProductsInModels(t *testing.T) {
	be := open(t)
	defer be.Close()
	fusionKeepsLogits(t, be, []tinyModel{
		{"tiny", synth.Llama, "Q5_0"},
		{"tiny", synth.Qwen3, "F16"},
		{"tiny", synth.DeepSeek2, "Q8_0"},
		{"tiny-glm", "", "Q4_0"},
		{"tiny-lite", "", "Q5_1"},
	}, randomPrompt(23, 4), 70, func(on bool) { webgpu.RoundingProducts(be, on) }, "the rounding products")
}

// The chosen experts' down products, weighted sum, shared expert's down
// product and both adds of a decode step take one dispatch after their
// inputs' rounding (moe_down_rounded) and give what the separate
// dispatches give, bit for bit, for every weight type that rounds its
// input, with and without subgroups.
func TestMoEDownRoundedFused(t *testing.T) {
	for _, noSub := range []bool{false, true} {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: noSub})
		if err != nil {
			t.Fatal(err)
		}
		for _, wt := range weightTypes[1:] {
			// one quantize_act for both inputs, then the run
			t.Run(fmt.Sprintf("subgroups=%v/%s", !noSub, wt), func(t *testing.T) { moeSharedDown(t, be, wt, 2) })
		}
		be.Close()
	}
}

// The chosen and shared experts' gated units in one dispatch that rounds
// them for the down products (moe_gate_up_round) give what moe_gate_up
// and quantize_act give, bit for bit: the down products' outputs and the
// units themselves, when both down products round in 32-value blocks and
// when only the chosen experts' does (the shared one's then rounds apart).
func TestExpertGateUpRounding(t *testing.T) {
	be := open(t)
	defer be.Close()
	for _, c := range [][3]gguf.TensorType{
		{gguf.Q4_0, gguf.Q8_0, gguf.Q8_0},
		{gguf.Q6_K, gguf.Q4_0, gguf.Q5_1},
		{gguf.Q8_0, gguf.Q4_0, gguf.Q4_K}, // the shared down rounds in blocks of 256
		{gguf.F16, gguf.F16, gguf.Q4_0},
	} {
		t.Run(fmt.Sprintf("%s-then-%s-and-%s", c[0], c[1], c[2]), func(t *testing.T) { roundingExperts(t, be, c[0], c[1], c[2]) })
	}
}

// roundingExperts runs the gated units (weights gt) of 3 of 5 experts and
// a shared expert, then the chosen experts' down products (dt) and the
// shared one's (st), with the rounding products on and off.
func roundingExperts(t *testing.T, be gpu.Backend, gt, dt, st gguf.TensorType) {
	const K, N, NS, E, S, NO = 256, 64, 256, 5, 3, 40
	m := testBuffers{t, be, rand.New(rand.NewPCG(uint64(gt), uint64(st)))}
	gate, up := randomWeight(t, be, m.rng, "gate", gt, gpu.Shape4(K, N, E)), randomWeight(t, be, m.rng, "up", gt, gpu.Shape4(K, N, E))
	sGate, sUp := randomWeight(t, be, m.rng, "sgate", gt, gpu.Shape4(K, NS)), randomWeight(t, be, m.rng, "sup", gt, gpu.Shape4(K, NS))
	down, sDown := randomWeight(t, be, m.rng, "down", dt, gpu.Shape4(N, NO, E)), randomWeight(t, be, m.rng, "sdown", st, gpu.Shape4(NS, NO))
	x := m.random("x", K, 1)
	ids := m.alloc("ids", gguf.I32, S, 1)
	raw := make([]byte, 4*S)
	for s, e := range m.rng.Perm(E)[:S] {
		raw[4*s] = byte(e)
	}
	if err := ids.Write(0, raw); err != nil {
		t.Fatal(err)
	}
	run := func(fused bool) ([3][]byte, int) {
		webgpu.RoundingProducts(be, fused)
		defer webgpu.RoundingProducts(be, true)
		outs := [3]gpu.Buffer{m.alloc("d", gguf.F32, NO, S, 1), m.alloc("sd", gguf.F32, NO, 1), m.alloc("fs", gguf.F32, NS, 1)}
		g := gpu.NewGraph("experts", 1)
		in, I := g.Bind("x", x), g.Bind("ids", ids)
		G, U, F := g.New("g", gguf.F32, N, S, 1), g.New("u", gguf.F32, N, S, 1), g.New("f", gguf.F32, N, S, 1)
		SG, SU, FS := g.New("sg", gguf.F32, NS, 1), g.New("su", gguf.F32, NS, 1), g.New("fs", gguf.F32, NS, 1)
		experts := g.Reshape(in, K, 1, 1)
		g.Do(&gpu.MatMulID{W: g.Bind("gate", gate), In: experts, IDs: I, Out: G})
		g.Do(&gpu.MatMulID{W: g.Bind("up", up), In: experts, IDs: I, Out: U})
		g.Do(&gpu.SwiGLU{Gate: G, Up: U, Out: F})
		g.Do(&gpu.MatMul{W: g.Bind("sgate", sGate), In: in, Out: SG})
		g.Do(&gpu.MatMul{W: g.Bind("sup", sUp), In: in, Out: SU})
		g.Do(&gpu.SwiGLU{Gate: SG, Up: SU, Out: FS})
		g.Do(&gpu.MatMulID{W: g.Bind("down", down), In: F, IDs: I, Out: g.Bind("d", outs[0])})
		g.Do(&gpu.MatMul{W: g.Bind("sdown", sDown), In: FS, Out: g.Bind("sd", outs[1])})
		g.Do(&gpu.Copy{In: FS, Out: g.Bind("fs", outs[2])})
		return runRead(t, be, g, outs)
	}
	fused, kf := run(true)
	apart, ka := run(false)
	// Apart, one quantize_act rounds both units when the down products
	// round alike, else one each; with the rounding gated units none does,
	// or one the shared expert's unit in blocks of 256.
	dm, _, _ := webgpu.RoundMode(dt, N)
	sm, sb, _ := webgpu.RoundMode(st, NS)
	want := ka - 1
	if dm != sm {
		want--
	}
	if sb == 256 {
		want++
	}
	if kf != want {
		t.Errorf("%d kernels with the rounding gated units, %d apart: want %d", kf, ka, want)
	}
	sameBitsAs(t, fused, apart, "chosen experts' down products", "shared expert's down product", "shared expert's unit")
}
