//go:build cgo && !js

package engine

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu/webgpu"
)

// Sampling on a device backend from the candidates the step chose on the
// device must draw exactly the tokens sampling from every logit draws, with
// and without repetition penalties (which widen the list), and a sampler
// the list cannot serve exactly (top-k off, or larger than the device's
// limit) must fall back to the logits.
func TestCandidateSamplingMatchesLogits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(path, "tiny", synth.Qwen3, "Q8_0", 11); err != nil {
		t.Fatal(err)
	}
	be, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := Load(path, Options{Backend: be, Context: 160})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	prompt := []int32{1, 84, 104, 101, 32, 99, 97, 116}
	gen := func(candidates bool, o sample.Options) (*Result, *Session) {
		t.Helper()
		s, err := e.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		s.candidates = candidates
		res, err := s.GenerateTokens(context.Background(), prompt, Request{Sample: o, MaxTokens: 48, IgnoreEOS: true}, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res, s
	}
	plain := sample.DefaultOptions()
	plain.Seed = 5
	plain.Temperature = 1.5 // flat enough that the draws vary
	penal := plain
	penal.RepeatPenalty, penal.PresencePenalty, penal.Seed = 1.3, 0.2, 9
	noTopK := plain
	noTopK.TopK = 0
	wide := plain
	wide.TopK = 300
	for _, c := range []struct {
		name string
		o    sample.Options
		top  bool // the device chooses the candidates
	}{
		{"top-k 40", plain, true},
		{"penalties", penal, true},
		{"top-k off", noTopK, false},
		{"top-k 300", wide, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, _ := gen(false, c.o)
			got, s := gen(true, c.o)
			if !slices.Equal(got.Tokens, want.Tokens) {
				t.Fatalf("from candidates %v\nfrom logits     %v", got.Tokens, want.Tokens)
			}
			if len(slices.Compact(slices.Clone(got.Tokens))) < 8 {
				t.Fatalf("the draws hardly vary (%v): the test would not see a wrong candidate", got.Tokens)
			}
			if used := len(s.topSteps) > 0; used != c.top {
				t.Fatalf("candidate steps compiled: %v, want %v", used, c.top)
			}
		})
	}
}
