package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/internal/stats"
	"github.com/emberllm/ember/server"
)

func init() {
	register("remote", "drive a server (or the browser engine behind it) over WebSocket", runRemote)
}

// remoteOptions turns the sampling flags into the protocol's options,
// sending only what differs from the server's defaults, so that the server
// (or browser engine) keeps its own when a flag is not given.
func remoteOptions(fs *flag.FlagSet, sf *sampleFlags, tf *thinkFlags, count int, stops []string) (*server.Options, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o := &server.Options{Stop: stops}
	f := func(name string, v float64) *float64 {
		if !set[name] {
			return nil
		}
		return &v
	}
	o.Temperature, o.TopP, o.MinP = f("temperature", sf.temp), f("top-p", sf.topP), f("min-p", sf.minP)
	o.RepeatPenalty, o.PresencePenalty, o.FrequencyPenalty = f("repeat-penalty", sf.repeat), f("presence-penalty", sf.presence), f("frequency-penalty", sf.frequency)
	if set["top-k"] {
		o.TopK = &sf.topK
	}
	if set["repeat-last-n"] {
		o.RepeatLastN = &sf.lastN
	}
	if sf.seed >= 0 {
		seed := server.Seed(sf.seed)
		o.Seed = &seed
	}
	if count > 0 {
		o.MaxTokens = &count
	}
	think, err := tf.value()
	o.Think = think
	return o, err
}

func runRemote(args []string) error {
	fs := flag.NewFlagSet("remote", flag.ContinueOnError)
	var sf sampleFlags
	var tf thinkFlags
	sf.register(fs)
	tf.register(fs)
	prompt := fs.String("prompt", "", "the prompt")
	system := fs.String("system", "", "system prompt")
	raw := fs.Bool("raw-prompt", false, "send the prompt untouched, without the chat template")
	model := fs.String("model", "", "model to use (default: the server's)")
	count := fs.Int("count", 256, "maximum tokens to generate (0: the server's limit)")
	key := fs.String("api-key", os.Getenv("EMBER_API_KEY"), "the server's API key (default $EMBER_API_KEY)")
	bench := fs.Bool("bench", false, "run the request --runs times and report tok/s instead of printing text")
	runs := fs.Int("runs", 5, "requests --bench sends")
	conc := fs.Int("concurrency", 1, "requests --bench keeps in flight at once on the connection")
	ignoreEOS := fs.Bool("ignore-eos", false, "generate past end-of-text tokens, to --count (benchmarks)")
	verbose := fs.Bool("v", false, "print the server's totals at the end")
	var stops stringList
	fs.Var(&stops, "stop", "stop string (repeatable)")
	// The URL comes first (ember remote ws://host/ws --prompt ...), but
	// may also follow the flags.
	var url string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		url, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if url == "" && fs.NArg() > 0 {
		url = fs.Arg(0)
	}
	if url == "" || !(strings.HasPrefix(url, "ws://") || strings.HasPrefix(url, "wss://")) {
		return fmt.Errorf("usage: ember remote ws://HOST:PORT/ws --prompt TEXT [options]")
	}
	if *prompt == "" {
		return fmt.Errorf("no prompt: pass --prompt TEXT")
	}
	if err := checkCount(*count, "the server's limit"); err != nil {
		return err
	}
	if *runs < 1 || *conc < 1 {
		return fmt.Errorf("--runs and --concurrency must be at least 1")
	}
	opts, err := remoteOptions(fs, &sf, &tf, *count, stops)
	if err != nil {
		return err
	}
	if *ignoreEOS {
		opts.IgnoreEOS = ignoreEOS
	}
	req := server.Message{Model: *model, Raw: *raw, Options: opts}
	if *raw {
		req.Prompt = *prompt
	} else {
		if *system != "" {
			req.Messages = append(req.Messages, server.WireMessage{Role: "system", Content: *system})
		}
		req.Messages = append(req.Messages, server.WireMessage{Role: "user", Content: *prompt})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	cl, err := server.Dial(dctx, url, *key)
	cancel()
	if err != nil {
		return err
	}
	defer cl.Close()
	if *bench {
		err = remoteBench(ctx, cl, req, *runs, *conc)
	} else {
		err = remoteOnce(ctx, cl, req)
	}
	if err == nil && *verbose {
		if st, err := cl.Stats(context.Background()); err == nil {
			fmt.Fprintf(os.Stderr, "[server: model %s, %d/%d sessions busy, %d requests (%d cancelled, %d failed), %d tokens generated, up %.0f s]\n",
				st.Model, st.Busy, st.Parallel, st.Requests, st.Cancelled, st.Failed, st.GeneratedTokens, st.UptimeSeconds)
		}
	}
	return err
}

// remoteOnce streams one answer to stdout and its stats to stderr; Ctrl-C
// cancels it on the server.
func remoteOnce(ctx context.Context, cl *server.Client, req server.Message) error {
	pr := &streamPrinter{w: os.Stdout}
	st, err := cl.Generate(ctx, req, func(m server.Message) {
		pr.event(engine.Event{Text: m.Text, Reasoning: m.Reasoning})
	})
	pr.endThinking()
	fmt.Println()
	if err != nil {
		return err
	}
	if st != nil {
		printStats(os.Stderr, st.EngineStats())
	}
	return nil
}

// remoteBench sends the request runs times, conc at a time, and prints
// each run's rates and a summary: mean and spread of the server-measured
// decode rate, and the aggregate rate the client saw.
func remoteBench(ctx context.Context, cl *server.Client, req server.Message, runs, conc int) error {
	var (
		mu      sync.Mutex
		rates   []float64
		tokens  int
		firstEr error
	)
	jobs := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				st, err := cl.Generate(ctx, req, nil)
				mu.Lock()
				if err != nil {
					if firstEr == nil {
						firstEr = err
					}
				} else if st != nil {
					fmt.Printf("run %d: prompt %d tokens, %.1f tok/s | generated %d tokens, %.1f tok/s | %s\n",
						i+1, st.PromptTokens, st.PrefillRate, st.GeneratedTokens, st.DecodeRate, st.StopReason)
					rates = append(rates, st.DecodeRate)
					tokens += st.GeneratedTokens
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < runs && ctx.Err() == nil; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if firstEr != nil {
		return firstEr
	}
	if len(rates) == 0 {
		return fmt.Errorf("no run finished")
	}
	wall := time.Since(start).Seconds()
	mean, sd := stats.MeanSD(rates)
	fmt.Printf("decode: %.1f ± %.1f tok/s over %d runs | aggregate: %d tokens in %.2f s = %.1f tok/s (concurrency %d)\n",
		mean, sd, len(rates), tokens, wall, float64(tokens)/wall, conc)
	return nil
}
