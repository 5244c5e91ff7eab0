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
	depth := fs.Int("d", 0, "tokens of context before each test, as llama-bench's -d: the prefill test follows that many cached tokens, and so does the decode test (from one more token)")
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
	if *depth < 0 {
		return fmt.Errorf("-d %d: want a depth of 0 or more tokens", *depth)
	}
	if !(*temp >= 0 && *temp <= 100) {
		return fmt.Errorf("-temp %v: want a temperature from 0 to 100", *temp)
	}
	if mf.ctx == 0 {
		mf.ctx = *depth + max(*nPrompt, *nGen+1)
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
	if need := *depth + max(*nPrompt, *nGen+1); need > e.Context {
		return fmt.Errorf("-d %d with -p %d or -n %d (plus its first token) needs a context of %d tokens; the context is %d", *depth, *nPrompt, *nGen, need, e.Context)
	}
	e.Describe(os.Stderr)
	fmt.Fprintf(os.Stderr, "loaded in %.2f s\n", loadS)
	rng := rand.New(rand.NewPCG(1, 2))
	prompt := make([]int32, *nPrompt)
	for i := range prompt {
		prompt[i] = benchToken(e, rng)
	}
	ctxTokens := make([]int32, *depth)
	for i := range ctxTokens {
		ctxTokens[i] = benchToken(e, rng)
	}
	first := benchToken(e, rng)
	var pre, dec []float64
	var kernels int
	for r := 0; r < *reps; r++ {
		s, err := e.NewSession()
		if err != nil {
			return err
		}
		decode := sample.DefaultOptions()
		decode.Temperature = float32(*temp)
		decode.Seed = uint64(r + 1)
		pp, tg, err := benchRuns(s, ctxTokens, prompt, first, *nGen, decode)
		if err != nil {
			return err
		}
		pre = append(pre, pp.PrefillRate())
		dec = append(dec, tg.DecodeRate())
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
			"prompt_tokens": *nPrompt, "gen_tokens": *nGen, "depth": *depth, "reps": *reps, "temperature": *temp,
			"prefill_mean": pm, "prefill_sd": ps, "decode_mean": dm, "decode_sd": ds,
			"kernels_per_token": kernels, "weight_bytes_per_token": perTok,
			"prefill": pre, "decode": dec, "read_gbps": readGBs, "load_s": loadS,
		})
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "model\tbackend\tthreads\ttest\ttok/s\tms/token\tkernels/token\tweight MB/token\tGB/s\t")
	name := fmt.Sprintf("%s %.0fM", e.Model.Config.Arch, float64(e.Model.WeightBytes)/1e6)
	at := ""
	if *depth > 0 {
		at = fmt.Sprintf(" @ d%d", *depth)
	}
	fmt.Fprintf(tw, "%s\t%s\t%d\tpp%d%s\t%.2f ± %.2f\t%.3f\t\t\t\t\n", name, e.Backend.Name(), threads, *nPrompt, at, pm, ps, 1000/pm)
	tg := fmt.Sprintf("tg%d", *nGen)
	if *temp > 0 {
		tg += fmt.Sprintf(" (temp %g)", *temp)
	}
	tg += at
	fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%.2f ± %.2f\t%.3f\t%d\t%.1f\t%.1f\t\n", name, e.Backend.Name(), threads, tg, dm, ds, 1000/dm, kernels, float64(perTok)/1e6, float64(perTok)*dm/1e9)
	return tw.Flush()
}

// benchRuns runs one repetition's two tests in a session, as llama-bench
// runs its pp and tg tests: the prefill of prompt after ctxTokens of cached
// context, and the decode of nGen tokens after ctxTokens and first, so the
// decode's steps attend over the same context as llama-bench's tg at that
// depth (not over the prompt: a decode after a 512-token prompt attends over
// 512 more positions than llama-bench's tg512 does). A first run over the
// context and the prompt, greedy and outside the timing, compiles the
// prefill and decode graphs (a one-token run left the prefill graphs'
// compilation in the first repetition).
func benchRuns(s *engine.Session, ctxTokens, prompt []int32, first int32, nGen int, decode sample.Options) (pp, tg engine.Stats, err error) {
	greedy := sample.DefaultOptions()
	greedy.Temperature = 0
	ctx := context.Background()
	whole := append(append([]int32{}, ctxTokens...), prompt...)
	if _, err := s.GenerateTokens(ctx, whole, engine.Request{Sample: greedy, MaxTokens: 2, IgnoreEOS: true}, false, nil); err != nil {
		return pp, tg, err
	}
	s.Reset()
	if len(ctxTokens) > 0 {
		if _, err := s.GenerateTokens(ctx, ctxTokens, engine.Request{Sample: greedy, MaxTokens: 1, IgnoreEOS: true}, false, nil); err != nil {
			return pp, tg, err
		}
	}
	res, err := s.GenerateTokens(ctx, whole, engine.Request{Sample: greedy, MaxTokens: 1, IgnoreEOS: true}, false, nil)
	if err != nil {
		return pp, tg, err
	}
	pp = res.Stats
	s.Reset()
	start := append(append([]int32{}, ctxTokens...), first)
	// nGen+1 tokens: the first comes from the prefill's logits, and
	// DecodeRate counts the nGen after it.
	if res, err = s.GenerateTokens(ctx, start, engine.Request{Sample: decode, MaxTokens: nGen + 1, IgnoreEOS: true}, false, nil); err != nil {
		return pp, tg, err
	}
	return pp, res.Stats, nil
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
