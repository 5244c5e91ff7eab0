//go:build cgo && !js

package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
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

// eventLog is the WebGPU backend (device copies included) logging each
// program run ("run"), each run recorded ahead ("prepare") and each read
// of the batch's chained tokens ("read chain").
type eventLog struct {
	*copyCounter
	events []string
}

func (l *eventLog) Compile(g *gpu.Graph) (gpu.Program, error) {
	p, err := l.Backend.Compile(g)
	if err != nil {
		return nil, err
	}
	return &loggedProgram{p, l}, nil
}

func (l *eventLog) Alloc(name string, typ gpu.Type, shape [4]int) (gpu.Buffer, error) {
	b, err := l.Backend.Alloc(name, typ, shape)
	if err != nil || name != "batch.chosen" {
		return b, err
	}
	return &loggedBuffer{b, l}, nil
}

// CopyBuffer hands the backend its own buffers.
func (l *eventLog) CopyBuffer(dst gpu.Buffer, dstOff int, src gpu.Buffer, srcOff, n int) error {
	if b, ok := dst.(*loggedBuffer); ok {
		dst = b.Buffer
	}
	return l.copyCounter.CopyBuffer(dst, dstOff, src, srcOff, n)
}

type loggedProgram struct {
	gpu.Program
	l *eventLog
}

func (p *loggedProgram) Run(params gpu.Params) error {
	p.l.events = append(p.l.events, "run")
	return p.Program.Run(params)
}

func (p *loggedProgram) Prepare() (func(gpu.Params) error, error) {
	p.l.events = append(p.l.events, "prepare")
	return p.Program.(gpu.Preparer).Prepare()
}

type loggedBuffer struct {
	gpu.Buffer
	l *eventLog
}

func (b *loggedBuffer) Read(off int, dst []byte) error {
	b.l.events = append(b.l.events, "read chain")
	return b.Buffer.Read(off, dst)
}

// TestBatchChainPreparesBeforeWait: a batch's chain of device steps has
// the next step's commands recorded (Prepare) before the host waits for
// the chain's tokens, so that recording, about a millisecond a step on a
// large model, overlaps the chain on the device instead of idling it.
func TestBatchChainPreparesBeforeWait(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(path, "tiny", synth.Llama, "Q8_0", 3); err != nil {
		t.Fatal(err)
	}
	be, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := &eventLog{copyCounter: &copyCounter{Backend: be}}
	e, err := Load(path, Options{Backend: l, Context: 96})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	b, err := e.NewBatch(1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := b.Sessions()[0]
	res, err := s.GenerateTokens(context.Background(), []int32{1, 72, 101}, Request{MaxTokens: 40, IgnoreEOS: true}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tokens) != 40 {
		t.Fatalf("%d tokens, want 40", len(res.Tokens))
	}
	reads := 0
	for i, ev := range l.events {
		if ev != "read chain" {
			continue
		}
		reads++
		// The chain's steps ran, then the next step was recorded.
		if i < 2 || l.events[i-1] != "prepare" || l.events[i-2] != "run" {
			t.Fatalf("chain read %d not right after its steps and the next one's recording (events %v)", reads, l.events)
		}
	}
	if reads < 4 {
		t.Fatalf("%d chains read for 40 tokens, want chains of at most %d steps (events %v)", reads, chainSteps, l.events)
	}
}
