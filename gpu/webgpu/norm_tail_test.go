//go:build cgo && !js

package webgpu_test

import (
	"math/rand/v2"

	"fmt"
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
	"math"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu/webgpu"
)

// In whole models' decode steps, the products with the residual add whose
// last workgroup also computes the RMSNorm after them (matmul_norm: the
// layers' attention and feed-forward norms and the output norm) leave
// every logit as it was, bit for bit, in fewer kernels, for weights whose
// products read their input in packed Q8_0 blocks (the only rounding
// matmul_norm writes).
func TestNormTailsInModels(t *testing.T) {
	dir := t.TempDir()
	prompt := randomPrompt(29, 4)
	be := open(t)
	defer be.Close()
	for i, c := range []struct {
		shape string
		arch  synth.Arch
		typ   string
	}{
		{"tiny", synth.Llama, "Q4_0"},
		{"tiny", synth.Qwen3, "Q8_0"},
		{"tiny", synth.DeepSeek2, "Q8_0"},
		{"tiny-glm", "", "Q4_0"},
		{"tiny-lite", "", "Q4_0"},
	} {
		t.Run(fmt.Sprintf("%s-%s-%s", c.shape, c.arch, c.typ), func(t *testing.T) {
			path := writeTiny(t, dir, c.shape, c.arch, c.typ, uint64(90+i))
			webgpu.NormTails(be, false)
			apart, ka := decode(t, be, path, prompt, 8, nil), len(decodeKernels(t, be, path))
			webgpu.NormTails(be, true)
			fused, kf := decode(t, be, path, prompt, 8, apart.Next), len(decodeKernels(t, be, path))
			t.Logf("%d kernels a decode step, %d apart", kf, ka)
			if kf >= ka {
				t.Errorf("%d kernels a decode step with the norm tails, %d without: want fewer", kf, ka)
			}
			for k := range apart.Logits {
				for j, v := range apart.Logits[k] {
					if math.Float32bits(fused.Logits[k][j]) != math.Float32bits(v) {
						t.Fatalf("step %d, logit %d: %g with the norm tails, %g without", k, j, fused.Logits[k][j], v)
					}
				}
			}
		})
	}
}

// A decode product with the residual add, then the RMSNorm of the sum read
// by a product of Q4_0 weights (packed Q8_0 rounding), in one dispatch
// (matmul_norm) give what the product and rmsnorm_round give, bit for bit:
// the sum, the norm and the reader's output, for the first product in
// every weight type, with and without subgroups, on rows of 512 values (64
// workgroups) and 5120 (640 workgroups: four passes of the tail's first
// weights and one of its loop), the last of three runs
// on other inputs (the count the workgroups keep must start every run at
// zero).
func TestNormTailFused(t *testing.T) {
	for _, noSub := range []bool{false, true} {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: noSub})
		if err != nil {
			t.Fatal(err)
		}
		for _, wt := range weightTypes {
			t.Run(fmt.Sprintf("subgroups=%v/%s/N=512", !noSub, wt), func(t *testing.T) { normTail(t, be, wt, 512) })
		}
		t.Run(fmt.Sprintf("subgroups=%v/Q4_0/N=5120", !noSub), func(t *testing.T) { normTail(t, be, gguf.Q4_0, 5120) })
		be.Close()
	}
}

// normTail runs a product of weights wt ({256, N}) added into a residual
// in place, the residual's RMSNorm and a Q4_0 product reading it, fused
// and apart, and compares the three outputs.
func normTail(t *testing.T, be gpu.Backend, wt gguf.TensorType, N int) {
	const K, N2 = 256, 64
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(N)))
	w1 := randomWeight(t, be, rng, "w1", wt, gpu.Shape4(K, N))
	w2 := randomWeight(t, be, rng, "w2", gguf.Q4_0, gpu.Shape4(N, N2))
	nw := randomWeight(t, be, rng, "norm", gguf.F32, gpu.Shape4(N))
	x, err1 := be.Alloc("x", gguf.F32, gpu.Shape4(K))
	res0, err2 := be.Alloc("res0", gguf.F32, gpu.Shape4(N))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	writeRandom(t, res0, rng, N)
	run := func(fused bool) ([3][]byte, int) {
		webgpu.NormTails(be, fused)
		defer webgpu.NormTails(be, true)
		outRes, err1 := be.Alloc("out_res", gguf.F32, gpu.Shape4(N))
		outNorm, err2 := be.Alloc("out_norm", gguf.F32, gpu.Shape4(N))
		out2, err3 := be.Alloc("out2", gguf.F32, gpu.Shape4(N2))
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatal(err1, err2, err3)
		}
		g := gpu.NewGraph("norm_tail", 1)
		res, mid, normed := g.New("res", gguf.F32, N), g.New("mid", gguf.F32, N), g.New("normed", gguf.F32, N)
		g.Do(&gpu.Copy{In: g.Bind("res0", res0), Out: res})
		g.Do(&gpu.MatMul{W: g.Bind("w1", w1), In: g.Bind("x", x), Out: mid})
		g.Do(&gpu.Add{A: mid, B: res, Out: res})
		g.Do(&gpu.RMSNorm{In: res, Weight: g.Bind("norm", nw), Out: normed, Eps: 1e-5})
		g.Do(&gpu.MatMul{W: g.Bind("w2", w2), In: normed, Out: g.Bind("out2", out2)})
		g.Do(&gpu.Copy{In: res, Out: g.Bind("out_res", outRes)})
		g.Do(&gpu.Copy{In: normed, Out: g.Bind("out_norm", outNorm)})
		p, err := be.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		// Three runs of other inputs: a count left over from the run
		// before would hand the norm to no workgroup, and the outputs
		// would be the earlier run's.
		for r := range 3 {
			writeRandom(t, x, rand.New(rand.NewPCG(uint64(r), 7)), K)
			if err := p.Run(gpu.Params{}); err != nil {
				t.Fatal(err)
			}
		}
		var got [3][]byte
		for i, b := range []gpu.Buffer{outRes, outNorm, out2} {
			got[i] = make([]byte, 4*b.Shape()[0])
			if err := b.Read(0, got[i]); err != nil {
				t.Fatal(err)
			}
		}
		return got, p.Kernels()
	}
	fused, kf := run(true)
	apart, ka := run(false)
	if kf != ka-1 {
		t.Errorf("%d kernels with the norm in the product, %d apart: want %d", kf, ka, ka-1)
	}
	sameBitsAs(t, fused, apart, "residual", "norm", "reader's product")
}
