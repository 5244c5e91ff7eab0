package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/metal"
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
	fs.Var(positiveInt{&m.ctx}, "ctx", fmt.Sprintf("context size: `N` tokens (default %d, capped by the model)", engine.DefaultContext))
	fs.Var(positiveInt{&m.threads}, "threads", "`N` CPU threads (default: one per core)")
	fs.StringVar(&m.backend, "backend", "auto", "backend: auto (Metal on macOS, else WebGPU on a real GPU, else the CPU), cpu, webgpu, metal")
	fs.BoolVar(&m.verbose, "v", false, "print model and backend details")
	fs.BoolVar(&m.mmap, "mmap", false, "CPU: keep weights in the file mapping instead of copying them (less memory; decode can be several times slower)")
}

// positiveInt is an int flag whose value, when given, must be at least 1;
// 0 stands for "not given" (the default the usage names).
type positiveInt struct{ p *int }

func (v positiveInt) String() string {
	if v.p == nil || *v.p == 0 {
		return ""
	}
	return strconv.Itoa(*v.p)
}

func (v positiveInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("not a whole number")
	}
	if n < 1 {
		return errors.New("must be at least 1")
	}
	*v.p = n
	return nil
}

// check says what is wrong with the flags before anything is loaded.
func (m *modelFlags) check() error {
	if m.model == "" {
		return fmt.Errorf("no model given: pass --model NAME|FILE|URL")
	}
	switch m.backend {
	case "auto", "cpu", "webgpu", "metal", "":
		return nil
	}
	return fmt.Errorf("unknown backend %q (available: auto, cpu, webgpu, metal)", m.backend)
}

func (m *modelFlags) load() (*engine.Engine, error) {
	if err := m.check(); err != nil {
		return nil, err
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

// newBackend opens the named backend. auto takes Metal on macOS, WebGPU
// on a real GPU elsewhere (or where Metal does not open) and the CPU
// otherwise: a software Vulkan adapter (lavapipe, SwiftShader) is slower
// than ember's own CPU kernels.
func newBackend(name string, threads int, mapped bool, verbose bool) (gpu.Backend, error) {
	cpuBackend := func() gpu.Backend { return cpu.NewWith(cpu.Options{Threads: threads, Mapped: mapped}) }
	switch name {
	case "cpu":
		return cpuBackend(), nil
	case "metal":
		be, err := metal.Open(metal.Options{})
		if err != nil {
			return nil, err
		}
		be.(gpu.Describer).Describe(os.Stderr)
		return be, nil
	case "webgpu", "auto", "":
		if name != "webgpu" && runtime.GOOS == "darwin" {
			be, err := metal.Open(metal.Options{})
			if err == nil {
				if verbose {
					be.(gpu.Describer).Describe(os.Stderr)
				}
				return be, nil
			}
			if verbose {
				fmt.Fprintf(os.Stderr, "backend auto: %v; trying WebGPU\n", err)
			}
		}
		record := func(string) {}
		if name != "webgpu" {
			// Decided without Vulkan where possible (probe.go).
			var try bool
			if try, record = autoProbe(verbose); !try {
				return cpuBackend(), nil
			}
		}
		be, err := webgpu.Open(webgpu.Options{})
		if err != nil {
			if name == "webgpu" {
				return nil, err
			}
			record("none")
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
			record("software")
			if verbose {
				fmt.Fprintln(os.Stderr, "backend auto: the WebGPU adapter is a software renderer; using the CPU")
			}
			return cpuBackend(), nil
		}
		record("gpu")
		return be, nil
	}
	return nil, fmt.Errorf("unknown backend %q (available: auto, cpu, webgpu, metal)", name)
}

// sampleFlags are the sampling options of run and chat.
type sampleFlags struct {
	temp, topP, minP, repeat, presence, frequency float64
	topK, lastN                                   int
	seed                                          int64
}

func (s *sampleFlags) register(fs *flag.FlagSet) {
	d := sample.DefaultOptions()
	// Defaults print as they read (0.8), not as float32 widened.
	fs.Float64Var(&s.temp, "temperature", sample.Widen(d.Temperature), "sampling temperature (0: greedy)")
	fs.IntVar(&s.topK, "top-k", d.TopK, "top-k sampling (0: off)")
	fs.Float64Var(&s.topP, "top-p", sample.Widen(d.TopP), "top-p (nucleus) sampling (1: off)")
	fs.Float64Var(&s.minP, "min-p", sample.Widen(d.MinP), "min-p sampling (0: off)")
	fs.Float64Var(&s.repeat, "repeat-penalty", sample.Widen(d.RepeatPenalty), "repetition penalty (1: off)")
	fs.Float64Var(&s.presence, "presence-penalty", 0, "presence penalty")
	fs.Float64Var(&s.frequency, "frequency-penalty", 0, "frequency penalty")
	fs.IntVar(&s.lastN, "repeat-last-n", d.RepeatLastN, "tokens the penalties look back over")
	fs.Int64Var(&s.seed, "seed", -1, "random seed (-1: random)")
}

// options are the sampler's options, checked: the ranges are the
// server's where the server has them (a temperature below 0 is an error
// here as there, not a quiet "greedy").
func (s *sampleFlags) options() (sample.Options, error) {
	o := sample.DefaultOptions()
	switch {
	case math.IsNaN(s.temp) || s.temp < 0:
		return o, fmt.Errorf("--temperature %v is below 0 (0 is greedy)", s.temp)
	case s.topK < 0:
		return o, fmt.Errorf("--top-k %d is negative (0 turns it off)", s.topK)
	case !(s.topP > 0 && s.topP <= 1):
		return o, fmt.Errorf("--top-p %v is outside (0, 1] (1 turns it off)", s.topP)
	case !(s.minP >= 0 && s.minP <= 1):
		return o, fmt.Errorf("--min-p %v is outside [0, 1] (0 turns it off)", s.minP)
	case !(s.repeat > 0) || math.IsInf(s.repeat, 0):
		return o, fmt.Errorf("--repeat-penalty %v must be greater than 0 (1 turns it off)", s.repeat)
	case s.lastN < -1:
		return o, fmt.Errorf("--repeat-last-n %d is below -1 (-1: the whole history)", s.lastN)
	}
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
	return o, o.Validate()
}

// checkCount refuses a negative --count, which would otherwise read as 0
// without a word; zero says what 0 means to the command.
func checkCount(n int, zero string) error {
	if n < 0 {
		return fmt.Errorf("--count %d is negative (0: %s)", n, zero)
	}
	return nil
}

// thinkFlags is the --think / --no-think pair; unset means the model's default.
type thinkFlags struct{ on, off bool }

func (t *thinkFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&t.on, "think", false, "let a reasoning model think before answering")
	fs.BoolVar(&t.off, "no-think", false, "ask a reasoning model to answer without thinking")
}

// checkModel says when --think asks a model that has no reasoning mode
// to think: it answers as it always does.
func (t *thinkFlags) checkModel(e *engine.Engine, w io.Writer) {
	if t.on && !e.Chat.SupportsThinking() {
		fmt.Fprintf(w, "note: this model has no thinking mode (its chat format has none); --think changes nothing\n")
	}
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
