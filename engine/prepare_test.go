//go:build cgo && !js

package engine

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// prepareCounter is the WebGPU backend (with its device copies), its
// programs' prepared runs counted as they are submitted, or hidden where
// off.
type prepareCounter struct {
	*copyCounter
	off      bool
	prepares int
}

func (c *prepareCounter) Compile(g *gpu.Graph) (gpu.Program, error) {
	p, err := c.Backend.Compile(g)
	if err != nil || c.off {
		return plainProgram{p}, err
	}
	return &countedProgram{p, c}, nil
}

// plainProgram hides a program's Prepare.
type plainProgram struct{ p gpu.Program }

func (p plainProgram) Run(params gpu.Params) error { return p.p.Run(params) }
func (p plainProgram) Kernels() int                { return p.p.Kernels() }

type countedProgram struct {
	gpu.Program
	c *prepareCounter
}

func (p *countedProgram) Prepare() (func(gpu.Params) error, error) {
	submit, err := p.Program.(gpu.Preparer).Prepare()
	return func(params gpu.Params) error {
		p.c.prepares++
		return submit(params)
	}, err
}

// Sampled decoding with each next step recorded ahead (gpu.Preparer) gives
// the tokens of the same sampling with every step recorded when it runs:
// candidates chosen on the device, whole logits (a request for log
// probabilities), to the length limit and up to the end of the context.
func TestPreparedStepsMatchRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(path, "tiny", synth.Llama, "Q4_0", 11); err != nil {
		t.Fatal(err)
	}
	gen := func(off bool, req Request, ctx int) ([]int32, int) {
		t.Helper()
		be, err := webgpu.Open(webgpu.Options{})
		if err != nil {
			t.Fatal(err)
		}
		pc := &prepareCounter{copyCounter: &copyCounter{Backend: be}, off: off}
		e, err := Load(path, Options{Backend: pc, Context: ctx})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		s, err := e.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.GenerateTokens(context.Background(), []int32{1, 72, 101, 108, 108, 111}, req, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Tokens, pc.prepares
	}
	for _, c := range []struct {
		name     string
		logprobs bool
		n, ctx   int
	}{{"candidates", false, 40, 128}, {"whole logits", true, 12, 128}, {"context end", false, 0, 24}} {
		t.Run(c.name, func(t *testing.T) {
			o := sample.DefaultOptions()
			o.Temperature = 1.5 // flat enough that the draws pick many tokens
			o.Seed = 7
			req := Request{Sample: o, MaxTokens: c.n, IgnoreEOS: true, Logprobs: c.logprobs}
			want, _ := gen(true, req, c.ctx)
			got, prepares := gen(false, req, c.ctx)
			if !slices.Equal(got, want) {
				t.Fatalf("prepared steps: %v\nsteps run as recorded: %v", got, want)
			}
			if len(got) < 10 || prepares < len(got)-2 {
				t.Fatalf("%d tokens, %d prepared steps: the sampled loop did not submit prepared steps", len(got), prepares)
			}
			distinct := map[int32]bool{}
			for _, id := range got {
				distinct[id] = true
			}
			if len(distinct) < 4 {
				t.Fatalf("tokens %v: too few distinct ones to tell a stale token from a fresh one", got)
			}
		})
	}
}
