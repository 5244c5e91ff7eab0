package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// modelFlags are the options every command that loads a model takes.
type modelFlags struct {
	model   string
	ctx     int
	threads int
	backend string
	verbose bool
	mmap    bool
}

func (m *modelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.model, "model", "", "model: a registry name (see ember ls), a GGUF file or an http(s) URL")
	fs.IntVar(&m.ctx, "ctx", 0, fmt.Sprintf("context size in tokens (default %d, capped by the model)", engine.DefaultContext))
	fs.IntVar(&m.threads, "threads", 0, "CPU threads (default: one per core)")
	fs.StringVar(&m.backend, "backend", "auto", "backend: auto (WebGPU on a real GPU, else the CPU), cpu, webgpu")
	fs.BoolVar(&m.verbose, "v", false, "print model and backend details")
	fs.BoolVar(&m.mmap, "mmap", false, "CPU: keep weights in the file mapping instead of copying them (less memory; decode can be several times slower)")
}

func (m *modelFlags) load() (*engine.Engine, error) {
	if m.model == "" {
		return nil, fmt.Errorf("no model given: pass --model NAME|FILE|URL")
	}
	path, err := resolveModel(m.model)
	if err != nil {
		return nil, err
	}
	be, err := newBackend(m.backend, m.threads, m.mmap, m.verbose)
	if err != nil {
		return nil, err
	}
	progress, finish := loadProgress()
	e, err := engine.Load(path, engine.Options{Backend: be, Threads: m.threads, Context: m.ctx, Progress: progress})
	finish()
	if err != nil {
		be.Close()
		return nil, err
	}
	if m.verbose {
		e.Describe(os.Stderr)
	}
	return e, nil
}

// newBackend opens the named backend. auto takes WebGPU on a real GPU and
// the CPU otherwise: a software Vulkan adapter (lavapipe, SwiftShader) is
// slower than ember's own CPU kernels.
func newBackend(name string, threads int, mapped bool, verbose bool) (gpu.Backend, error) {
	cpuBackend := func() gpu.Backend { return cpu.NewWith(cpu.Options{Threads: threads, Mapped: mapped}) }
	switch name {
	case "cpu":
		return cpuBackend(), nil
	case "webgpu", "auto", "":
		be, err := webgpu.Open(webgpu.Options{})
		if err != nil {
			if name == "webgpu" {
				return nil, err
			}
			if verbose {
				fmt.Fprintf(os.Stderr, "backend auto: %v; using the CPU\n", err)
			}
			return cpuBackend(), nil
		}
		if d, ok := be.(gpu.Describer); ok && (verbose || name == "webgpu") {
			d.Describe(os.Stderr)
		}
		if s, ok := be.(gpu.SoftwareReporter); ok && s.Software() && name != "webgpu" {
			be.Close()
			if verbose {
				fmt.Fprintln(os.Stderr, "backend auto: the WebGPU adapter is a software renderer; using the CPU")
			}
			return cpuBackend(), nil
		}
		return be, nil
	}
	return nil, fmt.Errorf("unknown backend %q (available: auto, cpu, webgpu)", name)
}

// sampleFlags are the sampling options of run and chat.
type sampleFlags struct {
	temp, topP, minP, repeat, presence, frequency float64
	topK, lastN                                   int
	seed                                          int64
}

func (s *sampleFlags) register(fs *flag.FlagSet) {
	d := sample.DefaultOptions()
	fs.Float64Var(&s.temp, "temperature", float64(d.Temperature), "sampling temperature (0: greedy)")
	fs.IntVar(&s.topK, "top-k", d.TopK, "top-k sampling (0: off)")
	fs.Float64Var(&s.topP, "top-p", float64(d.TopP), "top-p (nucleus) sampling (1: off)")
	fs.Float64Var(&s.minP, "min-p", float64(d.MinP), "min-p sampling (0: off)")
	fs.Float64Var(&s.repeat, "repeat-penalty", float64(d.RepeatPenalty), "repetition penalty (1: off)")
	fs.Float64Var(&s.presence, "presence-penalty", 0, "presence penalty")
	fs.Float64Var(&s.frequency, "frequency-penalty", 0, "frequency penalty")
	fs.IntVar(&s.lastN, "repeat-last-n", d.RepeatLastN, "tokens the penalties look back over")
	fs.Int64Var(&s.seed, "seed", -1, "random seed (-1: random)")
}

func (s *sampleFlags) options() sample.Options {
	o := sample.DefaultOptions()
	o.Temperature = float32(s.temp)
	o.TopK = s.topK
	o.TopP = float32(s.topP)
	o.MinP = float32(s.minP)
	o.RepeatPenalty = float32(s.repeat)
	o.PresencePenalty = float32(s.presence)
	o.FrequencyPenalty = float32(s.frequency)
	o.RepeatLastN = s.lastN
	if s.seed >= 0 {
		o.Seed = uint64(s.seed)
	} else {
		o.Seed = uint64(randomSeed())
	}
	return o
}

// thinkFlags is the --think / --no-think pair; unset means the model's default.
type thinkFlags struct{ on, off bool }

func (t *thinkFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&t.on, "think", false, "let a reasoning model think before answering")
	fs.BoolVar(&t.off, "no-think", false, "ask a reasoning model to answer without thinking")
}

func (t *thinkFlags) value() (*bool, error) {
	switch {
	case t.on && t.off:
		return nil, fmt.Errorf("--think and --no-think are exclusive")
	case t.on:
		v := true
		return &v, nil
	case t.off:
		v := false
		return &v, nil
	}
	return nil, nil
}
