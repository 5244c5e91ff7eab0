//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/gputest"
	"github.com/emberllm/ember/gpu/webgpu"
	"github.com/emberllm/ember/internal/oracle"
)

// writeTiny writes a tiny synthetic model of the given layout.
func writeTiny(t *testing.T, dir, shape string, arch synth.Arch, typ string, seed uint64) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("%s-%s-%s.gguf", shape, arch, typ))
	if err := synth.WriteFile(path, shape, arch, typ, seed); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadModel loads the model at path onto be; its file stays open until
// the test ends.
func loadModel(t *testing.T, be gpu.Backend, path string) *model.Model {
	t.Helper()
	r, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	m, err := model.Load(r, be)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// decode is gputest.Decode, failing t on an error.
func decode(t *testing.T, be gpu.Backend, path string, prompt []int32, n int, forced []int32) gputest.Decoded {
	t.Helper()
	out, err := gputest.Decode(be, path, prompt, n, forced)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// compare decodes n greedy tokens on the CPU backend, replays that path on
// WebGPU (teacher forcing) and holds WebGPU's next-token distributions to
// the CPU's under gputest.ParityBound: the mean KL divergence and the
// share of steps with the same first choice that llama.cpp's own CPU
// builds keep from each other (its comment has the measurement). One
// bound for every model: none is tuned to a case.
func compare(t *testing.T, path string, prompt []int32, n int) {
	t.Helper()
	compareWith(t, webgpu.Options{}, path, prompt, n)
}

// compareWith is compare on a backend opened with o.
func compareWith(t *testing.T, o webgpu.Options, path string, prompt []int32, n int) {
	t.Helper()
	cb := cpu.New(2)
	defer cb.Close()
	ref := decode(t, cb, path, prompt, n, nil)
	wb, err := webgpu.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	got := decode(t, wb, path, prompt, n, ref.Next)
	kl, top1 := gputest.KL(got, ref)
	t.Logf("mean KL(CPU || WebGPU) %.3g over %d steps, same first choice on %.1f%%", kl, n, 100*top1)
	if err := gputest.ParityBound.Check(kl, top1); err != nil {
		t.Error(err)
	}
}

// Every architecture's tiny model in a weight type of each family, and
// stories260K, a real trained model.
func TestModelParityWithCPU(t *testing.T) {
	dir := t.TempDir()
	prompt := randomPrompt(21, 5)
	for i, c := range []struct {
		shape string
		arch  synth.Arch
		typ   string
	}{
		{"tiny", synth.Llama, "F32"},
		{"tiny", synth.Llama, "Q4_0"},
		{"tiny", synth.Qwen3, "Q8_0"},
		{"tiny", synth.Qwen2, "Q5_1"},
		{"tiny", synth.Qwen3MoE, "Q4_K"},
		{"tiny", synth.OLMoE, "Q6_K"},
		{"tiny", synth.DeepSeek2, "Q8_0"},
		{"tiny-glm", "", "Q4_0"},
		{"tiny-lite", "", "Q5_K"},
		{"tiny", synth.Youtu, "F16"},
	} {
		name := fmt.Sprintf("%s-%s-%s", c.shape, c.arch, c.typ)
		t.Run(name, func(t *testing.T) {
			compare(t, writeTiny(t, dir, c.shape, c.arch, c.typ, uint64(40+i)), prompt, 64)
		})
	}
	t.Run("stories260K", func(t *testing.T) {
		shared := oracle.SharedDir()
		if shared == "" {
			t.Skip("../shared is absent: no stories260K model")
		}
		compare(t, filepath.Join(shared, "models", "stories260K.gguf"), []int32{1, 403, 407, 261, 378}, 64)
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

// A prompt of many tokens prefills through the tiled products; rows and
// tokens end inside a tile.
func TestPrefillParityWithCPU(t *testing.T) {
	dir := t.TempDir()
	prompt := randomPrompt(22, 37)
	for i, c := range []struct {
		arch synth.Arch
		typ  string
	}{
		{synth.Llama, "F32"},
		{synth.Llama, "Q4_K"},
		{synth.Qwen3, "Q6_K"},
		{synth.Youtu, "F16"},
		{synth.DeepSeek2, "Q8_0"}, // MLA's per-head products tiled
	} {
		t.Run(fmt.Sprintf("%s-%s", c.arch, c.typ), func(t *testing.T) {
			compare(t, writeTiny(t, dir, "tiny", c.arch, c.typ, uint64(90+i)), prompt, 64)
		})
	}
}

// Weights larger than a storage binding (browsers may allow 128 MiB) are
// bound a range of rows at a time: a small cap splits a tiny model's
// embeddings, products, output head and expert stacks.
func TestSplitBindingsParityWithCPU(t *testing.T) {
	dir := t.TempDir()
	// Enough tokens for the tiled products, whose row ranges follow the
	// matvec's.
	prompt := []int32{3, 141, 59, 26, 53, 58, 97, 93, 23, 84, 62, 64, 33, 83, 27, 95, 2, 88, 41, 97}
	for i, c := range []struct {
		arch  synth.Arch
		typ   string
		limit uint64
	}{
		{synth.Llama, "Q4_0", 8 << 10},
		{synth.Qwen3MoE, "Q8_0", 160 << 10},
	} {
		t.Run(fmt.Sprintf("%s-%s-%dKiB", c.arch, c.typ, c.limit>>10), func(t *testing.T) {
			path := writeTiny(t, dir, "tiny", c.arch, c.typ, uint64(70+i))
			compareWith(t, webgpu.Options{MaxBinding: c.limit}, path, prompt, 24)
		})
	}
}
