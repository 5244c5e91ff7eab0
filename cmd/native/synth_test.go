package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/internal/oracle"
)

// ember synth end to end: a tiny GLM-4.7-Flash layout in Q4_K_M, re-read,
// then loaded by llama.cpp; and the errors a user can run into.
func TestSynthCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "glm.gguf")
	if err := runSynth([]string{"--shape", "tiny-glm", "--type", "Q4_K_M", "--seed", "5", "-o", out}); err != nil {
		t.Fatal(err)
	}
	r, err := gguf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if g, _ := r.Metadata.Uint("deepseek2.expert_gating_func"); g != 2 {
		t.Errorf("expert_gating_func %d, want sigmoid (2)", g)
	}
	if ti, ok := r.Tensor("blk.1.exp_probs_b.bias"); !ok || ti.Type != gguf.F32 {
		t.Errorf("exp_probs_b: %v", ti)
	}
	if ti, ok := r.Tensor("blk.0.ffn_gate.weight"); !ok {
		t.Errorf("leading dense block missing: %v", ti)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(out), ".glm.gguf.part")); err == nil {
		t.Error("temporary file left behind")
	}
	if oracle.Available() == nil {
		res, err := oracle.Node("synth_check.mjs", "3", "1,2,3", "--", out)
		if err != nil || !strings.Contains(string(res), `"ok":true`) {
			t.Errorf("llama.cpp: %s %v", res, err)
		}
	}
	for _, bad := range [][]string{
		{"--shape", "tiny", "-o", out},                         // tiny needs --arch
		{"--shape", "nope", "-o", out},                         // unknown shape
		{"--shape", "olmoe", "--arch", "llama", "-o", out},     // shape implies another arch
		{"--shape", "tiny", "--arch", "llama", "--type", "Q9"}, // unknown type
		{"--shape", "tiny", "--arch", "llama"},                 // no output
		{"--shape", "tiny", "--arch", "llama", "--vocab", "/nonexistent.gguf", "-o", out},
	} {
		if err := runSynth(bad); err == nil {
			t.Errorf("synth %v: no error", bad)
		}
	}
}

// ember quantize end to end on stories260K.
func TestQuantizeCommand(t *testing.T) {
	sd := oracle.SharedDir()
	if sd == "" {
		t.Skip("../shared is absent")
	}
	in := filepath.Join(sd, "models", "stories260K.gguf")
	out := filepath.Join(t.TempDir(), "s.gguf")
	if err := runQuantize([]string{in, out, "Q4_K_M"}); err != nil {
		t.Fatal(err)
	}
	r, err := gguf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// 64-wide rows fit no 256-block: Q4_K falls back to Q5_0, the
	// Q6_K output head to Q8_0, the 172-wide ffn_down rows to F16
	for name, want := range map[string]gguf.TensorType{
		"blk.0.attn_q.weight": gguf.Q5_0, "output.weight": gguf.Q8_0, "blk.0.ffn_down.weight": gguf.F16, "output_norm.weight": gguf.F32,
	} {
		if ti, ok := r.Tensor(name); !ok || ti.Type != want {
			t.Errorf("%s: %v, want %s", name, ti, want)
		}
	}
	if ft, _ := r.Metadata.Uint("general.file_type"); ft != 15 {
		t.Errorf("file_type %d, want 15 (Q4_K_M)", ft)
	}
	for _, bad := range [][]string{{in, in, "Q8_0"}, {in, out}, {in, out, "Q7"}, {"/nonexistent.gguf", out, "Q8_0"}} {
		if err := runQuantize(bad); err == nil {
			t.Errorf("quantize %v: no error", bad)
		}
	}
}
