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

// A decode step's router product and the route after it in one dispatch
// (matmul_route) give what the two dispatches give, bit for bit: the
// logits, the chosen experts and their weights, for each gating, with and
// without a selection bias, normalisation and scale, for 64 experts (a
// thread each) and 160 (more than the workgroup's threads), router weights
// in F32 and Q8_0 (integer dots), with and without subgroups, the last of
// three runs on other inputs (the count the workgroups keep must start
// every run at zero).
func TestRouteTailFused(t *testing.T) {
	for _, noSub := range []bool{false, true} {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: noSub})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []routeCase{
			{gguf.F32, 64, 4, gpu.GateSoftmax, false, true, 1},
			{gguf.F32, 64, 4, gpu.GateSigmoid, true, true, 2.5},
			{gguf.F32, 160, 8, gpu.GateSoftmaxTopK, false, false, 1},
			{gguf.Q8_0, 160, 6, gpu.GateSigmoid, true, false, 1.5},
		} {
			t.Run(fmt.Sprintf("subgroups=%v/%s/E=%d/K=%d/gating=%d/bias=%v", !noSub, c.wt, c.E, c.K, c.gating, c.bias), func(t *testing.T) { routeTail(t, be, c) })
		}
		be.Close()
	}
}

// routeCase is one router: weights wt of E experts, K chosen.
type routeCase struct {
	wt     gguf.TensorType
	E, K   int
	gating gpu.Gating
	bias   bool
	norm   bool
	scale  float32
}

// routeTail runs a router product of 512-value rows and its route, fused
// and apart, and compares the logits, ids and weights.
func routeTail(t *testing.T, be gpu.Backend, c routeCase) {
	const K = 512
	rng := rand.New(rand.NewPCG(uint64(c.E), uint64(c.K)))
	w := randomWeight(t, be, rng, "router", c.wt, gpu.Shape4(K, c.E))
	bias := randomWeight(t, be, rng, "bias", gguf.F32, gpu.Shape4(c.E))
	x, err := be.Alloc("x", gguf.F32, gpu.Shape4(K))
	if err != nil {
		t.Fatal(err)
	}
	run := func(fused bool) ([3][]byte, int) {
		webgpu.RouteTails(be, fused)
		defer webgpu.RouteTails(be, true)
		logits, err1 := be.Alloc("logits", gguf.F32, gpu.Shape4(c.E, 1))
		ids, err2 := be.Alloc("ids", gguf.I32, gpu.Shape4(c.K, 1))
		wts, err3 := be.Alloc("weights", gguf.F32, gpu.Shape4(c.K, 1))
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatal(err1, err2, err3)
		}
		g := gpu.NewGraph("router", 1)
		l := g.Bind("logits", logits)
		g.Do(&gpu.MatMul{W: g.Bind("router", w), In: g.Bind("x", x), Out: l})
		r := &gpu.Route{Logits: l, IDs: g.Bind("ids", ids), Weights: g.Bind("weights", wts), K: c.K, Gating: c.gating, Norm: c.norm, Scale: c.scale}
		if c.bias {
			r.Bias = g.Bind("bias", bias)
		}
		g.Do(r)
		p, err := be.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		// Three runs of other inputs: a count left over from the run
		// before would hand the route to no workgroup, and the outputs
		// would be the earlier run's.
		for run := range 3 {
			writeRandom(t, x, rand.New(rand.NewPCG(uint64(run), 11)), K)
			if err := p.Run(gpu.Params{}); err != nil {
				t.Fatal(err)
			}
		}
		var got [3][]byte
		for i, b := range []gpu.Buffer{logits, ids, wts} {
			got[i] = make([]byte, gpu.Bytes(b.Type(), b.Shape()))
			if err := b.Read(0, got[i]); err != nil {
				t.Fatal(err)
			}
		}
		return got, p.Kernels()
	}
	fused, kf := run(true)
	apart, ka := run(false)
	if kf != ka-1 {
		t.Errorf("%d kernels with the route in the product, %d apart: want %d", kf, ka, ka-1)
	}
	sameBitsAs(t, fused, apart, "logits", "ids", "weights")
}

// In whole models' decode steps, the router products that choose their
// experts in their last workgroup (matmul_route) leave every logit as it
// was, bit for bit, in a kernel fewer a MoE layer: softmax routing
// (qwen3moe, OLMoE, DeepSeek-V2-Lite's tiny shape), sigmoid with a
// selection bias (GLM), and a shared expert beside the chosen.
func TestRouteTailsInModels(t *testing.T) {
	be := open(t)
	defer be.Close()
	fusionKeepsLogits(t, be, []tinyModel{
		{"tiny", synth.Qwen3MoE, "Q8_0"},
		{"tiny", synth.OLMoE, "Q4_0"},
		{"tiny", synth.DeepSeek2, "Q4_K"},
		{"tiny-glm", "", "Q4_0"},
		{"tiny-lite", "", "Q5_1"},
	}, randomPrompt(31, 4), 110, func(on bool) { webgpu.RouteTails(be, on) }, "the route in the product")
}
