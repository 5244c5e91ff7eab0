package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quantize"
)

func init() {
	register("quantize", "convert a model's weights to another type (Q8_0, Q4_0, Q4_K_M ...)", runQuantize)
}

func runQuantize(args []string) error {
	fs := flag.NewFlagSet("quantize", flag.ContinueOnError)
	pure := fs.Bool("pure", false, "one type for every weight matrix (no Q6_K output head, no mix upgrades)")
	threads := fs.Int("threads", 2, "goroutines converting")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: ember quantize [--pure] [--threads N] IN.gguf OUT.gguf TYPE\n\nTYPE: F32 F16 BF16 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q6_K Q4_K Q5_K, or a mix: Q4_K_S Q4_K_M Q5_K_S Q5_K_M.\nWeight matrices are converted as llama-quantize converts them (the output head and a tied\nembedding get Q6_K, mixes upgrade some layers); norms, biases and the MoE router keep their type.\n\nOptions:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() != 3 {
		fs.Usage()
		return errors.New("want IN OUT TYPE")
	}
	in, out, typ := fs.Arg(0), fs.Arg(1), fs.Arg(2)
	scheme, err := quantize.ParseScheme(typ, *pure)
	if err != nil {
		return err
	}
	if a, b := filepath.Clean(in), filepath.Clean(out); a == b {
		return errors.New("IN and OUT are the same file")
	}
	r, err := gguf.Open(in)
	if err != nil {
		return err
	}
	defer r.Close()
	tmp := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".part")
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	p := newProgress()
	res, err := quantize.Requantize(r, f, quantize.Options{
		Scheme: scheme, Workers: *threads,
		Progress: func(pr quantize.Progress) { p.update(pr.Tensor, pr.Tensors, pr.Name, pr.Done, pr.Total) },
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
	p.finish(res.Bytes)
	counts := map[gguf.TensorType]int{}
	for _, t := range res.Types {
		counts[t]++
	}
	var parts []string
	for t, n := range counts {
		parts = append(parts, fmt.Sprintf("%s:%d", t, n))
	}
	sort.Strings(parts)
	fmt.Fprintf(os.Stderr, "%s: %s, tensors %v\n", out, scheme.Name, parts)
	if len(res.Fallbacks) > 0 {
		fmt.Fprintf(os.Stderr, "%d tensor(s) with rows no %s block divides kept a compatible type: %v\n", len(res.Fallbacks), scheme.Default, res.Fallbacks)
	}
	return nil
}
