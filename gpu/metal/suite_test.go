package metal

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/gputest"
	"github.com/emberllm/ember/internal/oracle"
)

// The tests every device runs: the emulated one on Linux (emu_test.go)
// and Metal itself on macOS (metal_darwin_test.go).

// weightTypes are the weight types of the Metal products: WebGPU's.
var weightTypes = []gguf.TensorType{gguf.F32, gguf.F16, gguf.Q8_0, gguf.Q4_0, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K}

// runOps runs the whole op suite on backends made by newBackend.
func runOps(t *testing.T, newBackend func() gpu.Backend) {
	gputest.RunOpSuiteSubset(t, newBackend, nil, weightTypes)
}

// runOpsNoSIMD runs the products again on kernels built without
// SIMD-group functions: the matvecs' reductions through threadgroup
// memory (products of a few tokens, by expert too) and the tiled products'
// multiplication without SIMD-group matrices (of many).
func runOpsNoSIMD(t *testing.T, newBackend func() gpu.Backend) {
	gputest.Suite{Names: []string{"MatMul", "MatMulBatched", "MatMulStrided"}, Types: weightTypes}.Run(t, newBackend)
	gputest.Suite{Names: []string{"MatMulID"}, Types: weightTypes, MaxTokens: 5}.Run(t, newBackend)
}

// runOpsSplit runs the ops that read weights with the buffers weights are
// wrapped in capped at 4 KiB past the two pages a wrapped range may add
// (32 KiB for the experts, whose unit is a whole expert): weights past it
// are wrapped in several segments, each bound on its own, as weights past
// the device's largest buffer are. with makes backends of the options.
func runOpsSplit(t *testing.T, with func(Options) func() gpu.Backend) {
	small := gputest.Suite{Names: []string{"MatMul", "Embed", "RowsOf8"}, Types: weightTypes, MaxTokens: 5}
	small.Run(t, with(Options{MaxBuffer: 2*pageSize + 4<<10}))
	experts := gputest.Suite{Names: []string{"MatMulID"}, Types: weightTypes, MaxTokens: 5}
	experts.Run(t, with(Options{MaxBuffer: 2*pageSize + 32<<10}))
}

// parityModels decodes whole models on the CPU backend, replays each path
// on backends made by newBackend (teacher forcing) and holds their
// next-token distributions to the CPU's under gputest.ParityBound, the
// bound the WebGPU backend is held to: a prompt of several tokens
// (matvecs of many tokens, or tiled products past 16), then decode steps.
// A dense, a mixture-of-experts and a latent-attention layout, a long
// prompt and stories260K in make test; every architecture's tiny model in
// a weight type of each family, and long prompts of several, with
// EMBER_PARITY=all (make parity).
func parityModels(t *testing.T, newBackend func() gpu.Backend) {
	dir := t.TempDir()
	prompt := randomPrompt(21, 7)
	all := os.Getenv("EMBER_PARITY") == "all"
	for i, c := range []struct {
		shape string
		arch  synth.Arch
		typ   string
		quick bool
	}{
		{"tiny", synth.Llama, "Q4_0", true},
		{"tiny", synth.Qwen3, "Q8_0", false},
		{"tiny", synth.Qwen2, "Q5_1", false},
		{"tiny", synth.Qwen3MoE, "Q4_K", true},
		{"tiny", synth.OLMoE, "Q6_K", false},
		{"tiny", synth.DeepSeek2, "Q8_0", true},
		{"tiny-glm", "", "Q4_0", false},
		{"tiny-lite", "", "Q5_K", false},
		{"tiny", synth.Youtu, "F16", false},
	} {
		if !c.quick && !all {
			continue
		}
		name := fmt.Sprintf("%s-%s-%s", c.shape, c.arch, c.typ)
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".gguf")
			if err := synth.WriteFile(path, c.shape, c.arch, c.typ, uint64(40+i)); err != nil {
				t.Fatal(err)
			}
			compareModel(t, newBackend, path, prompt, 16)
		})
	}
	// A prompt of many tokens prefills through the tiled products; rows
	// and tokens end inside a tile.
	for i, c := range []struct {
		arch  synth.Arch
		typ   string
		quick bool
	}{
		{synth.Llama, "Q4_K", true},
		{synth.Qwen3, "Q6_K", false},
		{synth.Youtu, "F16", false},
		{synth.DeepSeek2, "Q8_0", false},
	} {
		if !c.quick && !all {
			continue
		}
		name := fmt.Sprintf("prefill-%s-%s", c.arch, c.typ)
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".gguf")
			if err := synth.WriteFile(path, "tiny", c.arch, c.typ, uint64(90+i)); err != nil {
				t.Fatal(err)
			}
			compareModel(t, newBackend, path, randomPrompt(22, 37), 8)
		})
	}
	t.Run("stories260K", func(t *testing.T) {
		shared := oracle.SharedDir()
		if shared == "" {
			t.Skip("../shared is absent: no stories260K model")
		}
		compareModel(t, newBackend, filepath.Join(shared, "models", "stories260K.gguf"), []int32{1, 403, 407, 261, 378}, 32)
	})
}

// compareModel is one model of parityModels: n steps after prompt.
func compareModel(t *testing.T, newBackend func() gpu.Backend, path string, prompt []int32, n int) {
	t.Helper()
	cb := cpu.New(2)
	defer cb.Close()
	ref, err := gputest.Decode(cb, path, prompt, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	be := newBackend()
	defer be.Close()
	got, err := gputest.Decode(be, path, prompt, n, ref.Next)
	if err != nil {
		t.Fatal(err)
	}
	kl, top1 := gputest.KL(got, ref)
	t.Logf("mean KL(CPU || Metal) %.3g over %d steps, same first choice on %.1f%%", kl, n, 100*top1)
	if err := gputest.ParityBound.Check(kl, top1); err != nil {
		t.Error(err)
	}
}

// batchModels checks that sequences decoded together in batch steps
// (prompts prefilled into slots of one shared cache, columns rotating)
// get each step's logits bit for bit as each gets decoding alone: every
// Metal kernel computes each token as a step of that token alone does.
// A dense layout and a mixture-of-experts one with latent attention;
// every architecture with EMBER_PARITY=all.
func batchModels(t *testing.T, newBackend func() gpu.Backend) {
	dir := t.TempDir()
	prompts := [][]int32{{1, 72, 101, 108, 108, 111}, {1, 33}, {1, 50, 60, 70, 80, 90}}
	be := newBackend()
	defer be.Close()
	for _, a := range synth.Archs {
		if !slices.Contains([]synth.Arch{synth.Llama, synth.DeepSeek2}, a) && os.Getenv("EMBER_PARITY") != "all" {
			continue
		}
		t.Run(string(a), func(t *testing.T) {
			path := filepath.Join(dir, string(a)+".gguf")
			if err := synth.WriteFile(path, "tiny", a, "Q8_0", 5); err != nil {
				t.Fatal(err)
			}
			r, err := gguf.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			m, err := model.Load(r, be)
			if err != nil {
				t.Fatal(err)
			}
			d, err := gputest.BatchMatchesSolo(m, prompts, 3, 4)
			if err != nil {
				t.Fatal(err)
			}
			if d != "" {
				t.Fatal(d)
			}
		})
	}
}

// randomPrompt is n token ids below 256 (every tiny model's vocabulary).
func randomPrompt(seed uint64, n int) []int32 {
	rng := rand.New(rand.NewPCG(seed, 5))
	prompt := make([]int32, n)
	for i := range prompt {
		prompt[i] = int32(rng.IntN(256))
	}
	return prompt
}
