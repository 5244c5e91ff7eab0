package model_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/gputest"
)

// TestBatchDecodeMatchesAlone: on the CPU backend, sequences decoded
// together in batch steps (their prompts prefilled into slots of one
// shared cache, a padding column beside them) get every logit of every
// step bit for bit as each gets decoding alone, for every architecture's
// tiny model, in the weight types whose products sum differently for one
// token and for several (F32 and F16 in llamafile's order, Q4_K in the
// repacked gemm's) and the interleaved Q4_0.
func TestBatchDecodeMatchesAlone(t *testing.T) {
	dir := t.TempDir()
	prompts := [][]int32{{1, 72, 101, 108, 108, 111}, {1, 33}, {1, 50, 60, 70, 80, 90, 100, 110, 120, 5, 6}}
	const n = 5
	type tc struct {
		arch  synth.Arch
		shape string
		typ   string
	}
	var cases []tc
	for _, a := range synth.Archs {
		cases = append(cases, tc{a, "tiny", "Q8_0"})
	}
	cases = append(cases, tc{synth.Llama, "tiny", "F32"}, tc{synth.Qwen3, "tiny", "F16"},
		tc{synth.Llama, "tiny", "Q4_K"}, tc{synth.Qwen2, "tiny", "Q4_0"}, tc{"", "tiny-glm", "Q4_K"})
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s-%s-%s", c.shape, c.arch, c.typ), func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("%s-%s-%s.gguf", c.shape, c.arch, c.typ))
			if err := synth.WriteFile(path, c.shape, c.arch, c.typ, 5); err != nil {
				t.Fatal(err)
			}
			be := cpu.New(2)
			defer be.Close()
			r, err := gguf.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			m, err := model.Load(r, be)
			if err != nil {
				t.Fatal(err)
			}
			d, err := gputest.BatchMatchesSolo(m, prompts, n, 4)
			if err != nil {
				t.Fatal(err)
			}
			if d != "" {
				t.Fatal(d)
			}
		})
	}
}
