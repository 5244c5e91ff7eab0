package model

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/internal/oracle"
)

// Files as llama.cpp writes them today, written by llama.cpp's own GGUF
// writer (gguf-py, from the source bundle node-llama-cpp ships) driven by
// testdata/llamacpp_gguf.py: q/k/v, attention output, feed-forward and
// output biases, `.scale` and `.input_scale` tensors, merged
// ffn_gate_up_exps expert stacks, a multi-token-prediction block, and
// tensors no loader takes.

// llamaCppFiles writes the script's models into a fresh folder and
// returns it, or skips the test where llama.cpp's source or NumPy is
// missing (make test installs both).
func llamaCppFiles(t *testing.T) string {
	t.Helper()
	if err := oracle.Available(); err != nil {
		t.Skip(err)
	}
	bundle := filepath.Join(oracle.Dir(), "node_modules", "node-llama-cpp", "llama", "gitRelease.bundle")
	if _, err := os.Stat(bundle); err != nil {
		t.Skipf("llama.cpp's source bundle is missing: %v", err)
	}
	py := pythonWithNumPy()
	if py == "" {
		t.Skip("no python3 with NumPy (apt-get install python3-numpy; make test installs it)")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "llama.cpp")
	// gguf-py alone, out of the bundle
	for _, args := range [][]string{
		{"clone", "--quiet", "--no-checkout", bundle, src},
		{"-C", src, "checkout", "--quiet", "HEAD", "--", "gguf-py"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	out := filepath.Join(dir, "models")
	cmd := exec.Command(py, filepath.Join("testdata", "llamacpp_gguf.py"), filepath.Join(src, "gguf-py"), out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("llamacpp_gguf.py: %v\n%s", err, b)
	}
	return out
}

// pythonWithNumPy is a Python 3 that imports numpy ("" when none does):
// the one on PATH, else Debian's (where apt's python3-numpy goes).
func pythonWithNumPy() string {
	var cands []string
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append(cands, p)
	}
	cands = append(cands, "/usr/bin/python3")
	for _, p := range cands {
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			return p
		}
	}
	return ""
}

// TestLlamaCppFiles: the files generate llama.cpp's greedy tokens; merged
// expert stacks and power-of-two scales give the logits of the same
// weights split or multiplied in, bit for bit; files with tensors no
// loader takes are refused, naming them, by ember and by llama.cpp.
func TestLlamaCppFiles(t *testing.T) {
	dir := llamaCppFiles(t)
	path := func(name string) string { return filepath.Join(dir, name+".gguf") }
	prompt := []int32{30, 238, 173, 191, 68, 244, 7}

	t.Run("llama.cpp", func(t *testing.T) {
		names := []string{
			"qwen2-q8_0",            // q/k/v biases, tied output
			"qwen2-f16-output-bias", // and an output bias
			"llama-biases-f32",      // q/k/v, attention output and feed-forward biases
			"llama-scales-q8_0",     // those and .scale/.input_scale on every projection
			"qwen3-scales-q4_0",     // q/k/v biases and scales with q/k norms
			"qwen3moe-scales-f32",   // per-expert scales
			"olmoe-biases-q8_0",     // q/k/v biases before the full-width q/k norms
			"deepseek2-merged-q8_0", // merged ffn_gate_up_exps, a NextN block
			"glm-merged-f32",        // merged, sigmoid routing with selection bias
		}
		var paths []string
		for _, n := range names {
			paths = append(paths, path(n))
		}
		compareGreedy(t, names, paths, prompt, 0, nil)
	})

	// llama.cpp (de3ff81) takes merged stacks for deepseek2 only, and
	// loads scales it then leaves out of some graphs: ember is held to the
	// same weights written the other way.
	for _, pair := range [][2]string{
		{"qwen3moe-q4_0-merged", "qwen3moe-q4_0-split"},
		{"olmoe-f32-merged", "olmoe-f32-split"},
		{"deepseek2-q8_0-merged", "deepseek2-q8_0-split"},
		{"qwen2-scaled", "qwen2-baked"},
		{"olmoe-scaled", "olmoe-baked"},
		{"deepseek2-scaled", "deepseek2-baked"},
	} {
		t.Run(pair[0], func(t *testing.T) {
			ids, logits := emberGreedy(t, path(pair[0]), prompt, 6)
			ids2, logits2 := emberGreedy(t, path(pair[1]), prompt, 6, ids[:5]...)
			for k := range logits {
				for i := range logits[k] {
					if math.Float32bits(logits[k][i]) != math.Float32bits(logits2[k][i]) {
						t.Fatalf("step %d: logit %d is %g, %s gives %g", k, i, logits[k][i], pair[1], logits2[k][i])
					}
				}
			}
			if fmt.Sprint(ids) != fmt.Sprint(ids2) {
				t.Fatalf("tokens %v, %s gives %v", ids, pair[1], ids2)
			}
		})
	}

	t.Run("refused", func(t *testing.T) {
		for name, unused := range map[string][]string{
			"llama-unknown-tensors": {"blk.0.attn_norm.bias", "blk.1.ffn_norm.bias"},
			"qwen2-ffn-bias":        {"blk.1.ffn_up.bias"}, // qwen2's loader takes no FFN biases
		} {
			err := loadErr(path(name))
			if err == nil {
				t.Errorf("%s: loaded", name)
				continue
			}
			for _, u := range unused {
				if !strings.Contains(err.Error(), u) {
					t.Errorf("%s: the error does not name %s: %v", name, u, err)
				}
			}
			if out, err := oracle.Node("greedy_many.mjs", "1", "1", path(name)); err == nil {
				t.Errorf("%s: llama.cpp loaded it: %s", name, out)
			} else if !strings.Contains(err.Error(), "wrong number of tensors") {
				t.Logf("%s: llama.cpp refuses it: %v", name, err)
			}
		}
	})
}

func loadErr(path string) error {
	r, err := gguf.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	be := cpu.New(1)
	defer be.Close()
	_, err = Load(r, be)
	return err
}
