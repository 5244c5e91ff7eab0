//go:build linux && (amd64 || arm64)

package metal

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/gputest"
	"github.com/emberllm/ember/internal/oracle"
)

// compareEmulated decodes n greedy tokens on the CPU backend, replays that
// path on the emulated Metal device (teacher forcing) and holds its
// next-token distributions to the CPU's under gputest.ParityBound, the
// bound the WebGPU backend is held to.
func compareEmulated(t *testing.T, o Options, path string, prompt []int32, n int) {
	t.Helper()
	cb := cpu.New(2)
	defer cb.Close()
	ref, err := gputest.Decode(cb, path, prompt, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	mb := emulated(o)()
	defer mb.Close()
	got, err := gputest.Decode(mb, path, prompt, n, ref.Next)
	if err != nil {
		t.Fatal(err)
	}
	kl, top1 := gputest.KL(got, ref)
	t.Logf("mean KL(CPU || Metal) %.3g over %d steps, same first choice on %.1f%%", kl, n, 100*top1)
	if err := gputest.ParityBound.Check(kl, top1); err != nil {
		t.Error(err)
	}
}

// TestEmulatedModelParity runs whole models through the MSL kernels, a
// prompt of several tokens (products of many tokens) and then decode
// steps: a dense, a mixture-of-experts and a latent-attention layout and
// stories260K in make test; every architecture's tiny model in a weight
// type of each family with EMBER_PARITY=all (make parity).
func TestEmulatedModelParity(t *testing.T) {
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
			compareEmulated(t, Options{}, path, prompt, 16)
		})
	}
	t.Run("stories260K", func(t *testing.T) {
		shared := oracle.SharedDir()
		if shared == "" {
			t.Skip("../shared is absent: no stories260K model")
		}
		compareEmulated(t, Options{}, filepath.Join(shared, "models", "stories260K.gguf"), []int32{1, 403, 407, 261, 378}, 32)
	})
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
