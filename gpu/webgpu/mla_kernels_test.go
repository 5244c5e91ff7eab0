//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// A decode layer of a deepseek2 model (latent attention, with and without
// the query's low-rank path; dense and expert feed-forwards) takes at most
// the kernels its fusions leave. A layer is counted from one layer's
// attention kernel to the next's, which spans a whole layer whatever
// kernel it starts with; the tiny models' first layer is dense, the rest
// experts. Products round their outputs for the next (matmul_round,
// matmul_gate_up_round, moe_gate_up_round) and the experts' down products
// read those (moe_down_rounded).
func TestMLADecodeKernelsPerLayer(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		shape      string
		arch       synth.Arch
		dense, moe int
	}{
		// Q4_0's dense gated unit is rounded for the down product by a
		// quantize_act of its own (lowerGateUp), a kernel more than the
		// rounding gated unit of other types.
		{"tiny-glm", "", 13, 14},          // q_lora
		{"tiny-lite", "", 12, 14},         // no q_lora, two shared experts
		{"tiny", synth.DeepSeek2, 13, 14}, // q_lora
		{"tiny", synth.Youtu, 13, 0},      // q_lora, dense only
	} {
		t.Run(fmt.Sprintf("%s-%s", c.shape, c.arch), func(t *testing.T) {
			be := open(t)
			defer be.Close()
			names := decodeKernels(t, be, writeTiny(t, dir, c.shape, c.arch, "Q4_0", 1))
			var at []int
			for i, n := range names {
				if n == "mla_step" {
					at = append(at, i)
				}
			}
			if len(at) < 2 {
				t.Fatalf("%d mla_step kernels in the decode step, want one a layer:\n%s", len(at), strings.Join(names, "\n"))
			}
			dense := at[1] - at[0]
			t.Logf("dense layer: %d kernels: %s", dense, strings.Join(names[at[0]:at[1]], " "))
			if dense > c.dense {
				t.Errorf("a dense layer takes %d kernels, want at most %d", dense, c.dense)
			}
			if c.moe == 0 {
				return
			}
			moe := at[2] - at[1]
			t.Logf("expert layer: %d kernels: %s", moe, strings.Join(names[at[1]:at[2]], " "))
			if moe > c.moe {
				t.Errorf("an expert layer takes %d kernels, want at most %d", moe, c.moe)
			}
		})
	}
}

// decodeKernels is the kernel names of a decode step of the model at path,
// in order.
func decodeKernels(t *testing.T, be gpu.Backend, path string) []string {
	t.Helper()
	m := loadModel(t, be, path)
	cache, err := m.NewCache(16)
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.NewStep(cache, 1)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	webgpu.KeepKernels(st.Program, func(n string, _ int) bool { names = append(names, n); return false })
	return names
}
