package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/emberllm/ember/engine/quantize"
	"github.com/emberllm/ember/engine/synth"
)

func init() {
	register("synth", "write a synthetic model of a real shape with random weights", runSynth)
}

func runSynth(args []string) error {
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	arch := fs.String("arch", "", "architecture: llama, qwen3, qwen3moe, olmoe, deepseek2, youtu (implied by named shapes)")
	shape := fs.String("shape", "", "shape: tiny, tiny-lite, tiny-glm, tiny-kvb, or a real model's (stories15m, llama3.2:1b, qwen3:30b-a3b, ...)")
	typ := fs.String("type", "F16", "tensor type for every weight matrix (F32 F16 BF16 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q4_K Q5_K Q6_K), or a mix: Q4_K_M Q4_K_S Q5_K_M Q5_K_S")
	vocab := fs.String("vocab", "", "copy the tokenizer from this GGUF (the vocabulary size follows it); default: a built-in byte-level BPE padded to the shape's size")
	seed := fs.Uint64("seed", 1, "random seed: the same seed writes the same file")
	out := fs.String("o", "", "output GGUF path")
	threads := fs.Int("threads", 2, "goroutines generating and quantizing")
	plan := fs.Bool("plan", false, "print the tensor plan and parameter count, write nothing")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: ember synth --shape S [--arch A] [--type T] [--vocab VOCAB.gguf] [--seed N] -o OUT.gguf\n\nShapes:")
		for _, s := range synth.Shapes() {
			fmt.Fprintln(fs.Output(), "  "+s)
		}
		fmt.Fprintln(fs.Output(), "\nOptions:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *shape == "" {
		return errors.New("--shape is required (ember synth -h lists them)")
	}
	cfg, err := synth.Preset(*shape, synth.Arch(*arch))
	if err != nil {
		return err
	}
	// a plain type means that type for every weight matrix; a mix
	// (Q4_K_M ...) applies its per-tensor rules
	scheme, err := quantize.ParseScheme(*typ, false)
	if err != nil {
		return err
	}
	if !scheme.Mix {
		scheme.Pure = true
	}
	var v *synth.Vocab
	if *vocab != "" {
		v, err = synth.VocabFromFile(*vocab)
	} else {
		v, err = synth.BuiltinVocab(cfg.Vocab)
	}
	if err != nil {
		return err
	}
	if err := cfg.Apply(v); err != nil {
		return err
	}
	if *plan {
		return printPlan(&cfg, scheme)
	}
	if *out == "" {
		return errors.New("-o OUT.gguf is required")
	}
	return writeSynth(&cfg, v, scheme, *seed, *threads, *out)
}

func printPlan(cfg *synth.Config, scheme quantize.Scheme) error {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var bytes int64
	for _, t := range synth.Layout(cfg, scheme) {
		fmt.Fprintf(w, "%-36s %-6s %v\n", t.Name, t.Type, t.Dims)
		bytes += t.Bytes()
	}
	total, embd := cfg.Params()
	fmt.Fprintf(w, "%s (%s): %d parameters (%.3fB), %d outside the embedding and output head; %s of tensor data as %s\n",
		cfg.Name, cfg.Arch, total, float64(total)/1e9, total-embd, mib(bytes), scheme.Name)
	return nil
}

// writeSynth writes to a temporary name and renames at the end, so an
// interrupted write never leaves a truncated file under the wanted name.
func writeSynth(cfg *synth.Config, v *synth.Vocab, scheme quantize.Scheme, seed uint64, threads int, out string) error {
	tmp := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".part")
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	p := newProgress()
	n, err := synth.Write(f, cfg, v, synth.Options{
		Scheme: scheme, Seed: seed, Workers: threads,
		Progress: func(pr synth.Progress) { p.update(pr.Tensor, pr.Tensors, pr.Name, pr.Done, pr.Total) },
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	p.finish(n)
	total, _ := cfg.Params()
	fmt.Fprintf(os.Stderr, "%s: %s %s, %.3fB parameters, %s\n", out, cfg.Name, scheme.Name, float64(total)/1e9, mib(n))
	return nil
}
