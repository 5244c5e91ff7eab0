//go:build cgo && !js

package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu/webgpu"
)

// TestBatchStreamsMatchAloneWebGPU is TestBatchStreamsMatchAlone on
// WebGPU (lavapipe here), where the sampled stream draws from candidates
// the batch step chooses on the device and the greedy ones alone decode
// by chains of device steps. make test runs it on qwen3 (gpu/webgpu's
// TestBatchDecodeMatchesAlone covers every architecture's batch step
// against its steps alone); EMBER_PARITY=all runs every architecture
// (about 50 s on lavapipe with 2 cores).
func TestBatchStreamsMatchAloneWebGPU(t *testing.T) {
	dir := t.TempDir()
	archs := []synth.Arch{synth.Qwen3}
	if os.Getenv("EMBER_PARITY") == "all" {
		archs = synth.Archs
	}
	for _, a := range archs {
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
