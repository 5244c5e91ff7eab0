//go:build cgo && !js

package engine

import (
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu/webgpu"
)

// TestBatchStreamsMatchAloneWebGPU is TestBatchStreamsMatchAlone on
// WebGPU (lavapipe here), where the sampled stream draws from candidates
// the batch step chooses on the device and the greedy ones alone decode
// by chains of device steps (the WebGPU tests of model's
// TestBatchDecodeMatchesAlone cover every architecture step by step).
func TestBatchStreamsMatchAloneWebGPU(t *testing.T) {
	dir := t.TempDir()
	for _, a := range []synth.Arch{synth.Qwen3} {
		t.Run(string(a), func(t *testing.T) {
			path := filepath.Join(dir, string(a)+".gguf")
			if err := synth.WriteFile(path, "tiny", a, "Q8_0", 3); err != nil {
				t.Fatal(err)
			}
			be, err := webgpu.Open(webgpu.Options{})
			if err != nil {
				t.Fatal(err)
			}
			e, err := Load(path, Options{Backend: be, Context: 96})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			checkStreams(t, e)
		})
	}
}
