//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// A decode step's RMSNorm read by one product that rounds its own output
// (MLA's q_a_norm and q_b) takes one dispatch (rmsnorm_matmul_round) and
// gives what rmsnorm_round and matmul_round give, bit for bit: the
// product's output and the next product's, for the weight types whose
// matvec reads 8-bit packed input, rows of one to four rounds of the
// workgroup's 16 blocks up to the longest it holds, with and without
// subgroups. A norm also read by another op keeps its own dispatch.
func TestNormedProductFused(t *testing.T) {
	for _, noSub := range []bool{false, true} {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: noSub})
		if err != nil {
			t.Fatal(err)
		}
		for _, wt := range []gguf.TensorType{gguf.Q4_0, gguf.Q8_0} {
			for _, K := range []int{256, 768, 2048} {
				t.Run(fmt.Sprintf("subgroups=%v/%s/K=%d", !noSub, wt, K), func(t *testing.T) { normedProduct(t, be, wt, K, false) })
			}
			t.Run(fmt.Sprintf("subgroups=%v/%s/read-elsewhere", !noSub, wt), func(t *testing.T) { normedProduct(t, be, wt, 768, true) })
		}
		be.Close()
	}
}

// normedProduct runs an RMSNorm of K values, a product of weights wt
// reading it and a Q8_0 product reading that, fused and apart; elsewhere:
// the normed row is also copied out after them, which must keep the norm
// a dispatch of its own.
func normedProduct(t *testing.T, be gpu.Backend, wt gguf.TensorType, K int, elsewhere bool) {
	const N, N2 = 64, 40
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(K)))
	w1 := randomWeight(t, be, rng, "w1", wt, gpu.Shape4(K, N))
	w2 := randomWeight(t, be, rng, "w2", gguf.Q8_0, gpu.Shape4(N, N2))
	x, err1 := be.Alloc("x", gguf.F32, gpu.Shape4(K))
	nw, err2 := be.Alloc("nw", gguf.F32, gpu.Shape4(K))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	writeRandom(t, x, rng, K)
	writeRandom(t, nw, rng, K)
	run := func(fused bool) ([3][]byte, int) {
		webgpu.NormedProducts(be, fused)
		defer webgpu.NormedProducts(be, true)
		out1, err1 := be.Alloc("out1", gguf.F32, gpu.Shape4(N))
		out2, err2 := be.Alloc("out2", gguf.F32, gpu.Shape4(N2))
		normed, err3 := be.Alloc("normed", gguf.F32, gpu.Shape4(K))
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatal(err1, err2, err3)
		}
		g := gpu.NewGraph("normed", 1)
		h, mid := g.New("h", gguf.F32, K), g.New("mid", gguf.F32, N)
		g.Do(&gpu.RMSNorm{In: g.Bind("x", x), Weight: g.Bind("nw", nw), Out: h, Eps: 1e-5})
		g.Do(&gpu.MatMul{W: g.Bind("w1", w1), In: h, Out: mid})
		g.Do(&gpu.MatMul{W: g.Bind("w2", w2), In: mid, Out: g.Bind("out2", out2)})
		g.Do(&gpu.Copy{In: mid, Out: g.Bind("out1", out1)})
		third := gpu.Buffer(out2)
		if elsewhere {
			g.Do(&gpu.Copy{In: h, Out: g.Bind("normed", normed)})
			third = normed
		}
		return runRead(t, be, g, [3]gpu.Buffer{out1, out2, third})
	}
	fused, kf := run(true)
	apart, ka := run(false)
	want := ka - 1
	if elsewhere {
		want = ka
	}
	if kf != want {
		t.Errorf("%d kernels with the normed product, %d apart: want %d", kf, ka, want)
	}
	sameBitsAs(t, fused, apart, "first product", "second product", "third output")
}

// In whole models' decode steps, MLA's q_a_norm and q_b take one
// dispatch and leave every logit as it was, bit for bit, one kernel a
// layer fewer (GLM's shape and Youtu's; DeepSeek-V2-Lite's has no q_a).
func TestNormedProductsInModels(t *testing.T) {
	dir := t.TempDir()
	prompt := randomPrompt(29, 4)
	be := open(t)
	defer be.Close()
	for i, c := range []struct {
		shape  string
		arch   synth.Arch
		typ    string
		layers int
	}{
		{"tiny-glm", "", "Q4_0", 3},
		{"tiny", synth.Youtu, "Q8_0", 2},
	} {
		t.Run(fmt.Sprintf("%s-%s-%s", c.shape, c.arch, c.typ), func(t *testing.T) {
			path := writeTiny(t, dir, c.shape, c.arch, c.typ, uint64(90+i))
			webgpu.NormedProducts(be, false)
			apart, ka := decode(t, be, path, prompt, 8, nil), len(decodeKernels(t, be, path))
			webgpu.NormedProducts(be, true)
			fused, kf := decode(t, be, path, prompt, 8, apart.Next), len(decodeKernels(t, be, path))
			if kf != ka-c.layers {
				t.Errorf("%d kernels a decode step with the normed products, %d without: want %d", kf, ka, ka-c.layers)
			}
			for k := range apart.Logits {
				for j, v := range apart.Logits[k] {
					if math.Float32bits(fused.Logits[k][j]) != math.Float32bits(v) {
						t.Fatalf("step %d, logit %d: %g with the normed products, %g without", k, j, fused.Logits[k][j], v)
					}
				}
			}
		})
	}
}
