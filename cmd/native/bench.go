package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"text/tabwriter"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/internal/stats"
)

func init() {
	register("bench", "measure prefill and decode speed (like llama-bench)", runBench)
}

func runBench(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var mf modelFlags
	mf.register(fs)
	nPrompt := fs.Int("p", 512, "prompt tokens to prefill")
	nGen := fs.Int("n", 128, "tokens to generate")
	reps := fs.Int("r", 3, "repetitions")
	temp := fs.Float64("temp", 0, "decode by sampling at this temperature (with the default top-k, top-p and min-p) rather than greedily, as a chat does; 0: greedy, as llama-bench's tg")
	asJSON := fs.Bool("json", false, "print the results as one JSON object")
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the timed runs to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *reps < 1 || *nPrompt < 1 || *nGen < 1 {
		return fmt.Errorf("-p, -n and -r must be positive")
	}
	if !(*temp >= 0 && *temp <= 100) {
		return fmt.Errorf("-temp %v: want a temperature from 0 to 100", *temp)
	}
	if mf.ctx == 0 {
		mf.ctx = *nPrompt + *nGen + 1
	}
	// The load's time runs from opening the file to the weights being on
	// the backend (a device backend's uploads included).
	t0 := time.Now()
	e, err := mf.load()
	if err != nil {
		return err
	}
	defer e.Close()
	loadS := time.Since(t0).Seconds()
	if *nPrompt+*nGen > e.Context {
		return fmt.Errorf("-p %d plus -n %d exceeds the context of %d", *nPrompt, *nGen, e.Context)
	}
	e.Describe(os.Stderr)
	fmt.Fprintf(os.Stderr, "loaded in %.2f s\n", loadS)
	rng := rand.New(rand.NewPCG(1, 2))
	prompt := make([]int32, *nPrompt)
	for i := range prompt {
		prompt[i] = benchToken(e, rng)
	}
	var pre, dec []float64
	var kernels int
	for r := 0; r < *reps; r++ {
		s, err := e.NewSession()
		if err != nil {
			return err
		}
		greedy := sample.DefaultOptions()
		greedy.Temperature = 0
		decode := sample.DefaultOptions()
		decode.Temperature = float32(*temp)
		decode.Seed = uint64(r + 1)
		// A first run over the whole prompt compiles the prefill and decode
		// graphs outside the timing (a one-token run left the prefill
		// graphs' compilation in the first repetition).
		if _, err := s.GenerateTokens(context.Background(), prompt, engine.Request{Sample: greedy, MaxTokens: 2, IgnoreEOS: true}, false, nil); err != nil {
			return err
		}
		s.Reset()
		res, err := s.GenerateTokens(context.Background(), prompt, engine.Request{Sample: decode, MaxTokens: *nGen, IgnoreEOS: true}, false, nil)
		if err != nil {
			return err
		}
		pre = append(pre, res.Stats.PrefillRate())
		dec = append(dec, res.Stats.DecodeRate())
		kernels = s.DecodeKernels()
		fmt.Fprintf(os.Stderr, "rep %d: prefill %.1f tok/s, decode %.1f tok/s\n", r+1, pre[r], dec[r])
	}
	readGBs := 0.0
	if bw, ok := e.Backend.(gpu.BandwidthMeter); ok {
		if readGBs, err = bw.ReadBandwidth(); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "device memory bandwidth (streaming read): %.1f GB/s\n", readGBs)
	}
	pm, ps := stats.MeanSD(pre)
	dm, ds := stats.MeanSD(dec)
	perTok := e.Model.DecodeBytes()
	threads := mf.threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	if *asJSON {
		return json.NewEncoder(os.Stdout).Encode(map[string]any{
			"arch": e.Model.Config.Arch, "layers": e.Model.Config.Layers, "backend": e.Backend.Name(), "threads": threads,
			"prompt_tokens": *nPrompt, "gen_tokens": *nGen, "reps": *reps, "temperature": *temp,
			"prefill_mean": pm, "prefill_sd": ps, "decode_mean": dm, "decode_sd": ds,
			"kernels_per_token": kernels, "weight_bytes_per_token": perTok,
			"prefill": pre, "decode": dec, "read_gbps": readGBs, "load_s": loadS,
		})
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "model\tbackend\tthreads\ttest\ttok/s\tms/token\tkernels/token\tweight MB/token\tGB/s\t")
	name := fmt.Sprintf("%s %.0fM", e.Model.Config.Arch, float64(e.Model.WeightBytes)/1e6)
	fmt.Fprintf(tw, "%s\t%s\t%d\tpp%d\t%.2f ± %.2f\t%.3f\t\t\t\t\n", name, e.Backend.Name(), threads, *nPrompt, pm, ps, 1000/pm)
	tg := fmt.Sprintf("tg%d", *nGen)
	if *temp > 0 {
		tg += fmt.Sprintf(" (temp %g)", *temp)
	}
	fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%.2f ± %.2f\t%.3f\t%d\t%.1f\t%.1f\t\n", name, e.Backend.Name(), threads, tg, dm, ds, 1000/dm, kernels, float64(perTok)/1e6, float64(perTok)*dm/1e9)
	return tw.Flush()
}

// benchToken draws a random ordinary token, as llama-bench fills prompts.
func benchToken(e *engine.Engine, rng *rand.Rand) int32 {
	v := e.Tokenizer.VocabSize()
	for {
		id := int32(rng.IntN(v))
		if !e.Tokenizer.IsControl(id) && !e.Tokenizer.IsEOG(id) {
			return id
		}
	}
}
