//go:build cgo && !js

package engine

import (
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// Prompt chunks of 512 are a device backend's (a gpu.Copier) and not the
// CPU backend's, nor a batch's, whose chunks are placed token by token
// (at most gpu.MaxPlaces); every backend takes 256 and less.
func TestPrefillChunksByBackend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(path, "tiny", synth.Llama, "Q8_0", 11); err != nil {
		t.Fatal(err)
	}
	wb, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		be    gpu.Backend
		batch bool
		want  bool
	}{{cpu.New(1), false, false}, {wb, true, false}, {wb, false, true}} {
		e, err := Load(path, Options{Backend: c.be, Context: 64})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		var s *Session
		if c.batch {
			b, err := e.NewBatch(2)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			s = b.Sessions()[0]
		} else if s, err = e.NewSession(); err != nil {
			t.Fatal(err)
		}
		if got := s.chunkFits(512); got != c.want {
			t.Errorf("%T (batch %v): chunks of 512 %v, want %v", c.be, c.batch, got, c.want)
		}
		for _, n := range []int{256, 32, 4, 1} {
			if !s.chunkFits(n) {
				t.Errorf("%T (batch %v): no chunks of %d", c.be, c.batch, n)
			}
		}
	}
}
