package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/emberllm/ember/engine"
)

func init() {
	register("run", "generate text from one prompt", runRun)
}

func runRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var mf modelFlags
	var sf sampleFlags
	var tf thinkFlags
	mf.register(fs)
	sf.register(fs)
	tf.register(fs)
	prompt := fs.String("prompt", "", "the prompt (default: the remaining arguments)")
	raw := fs.Bool("raw-prompt", false, "send the prompt untouched, without the chat template")
	count := fs.Int("count", 256, "maximum tokens to generate (0: until the context is full)")
	var stops stringList
	fs.Var(&stops, "stop", "stop string (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	p := *prompt
	if p == "" {
		p = strings.Join(fs.Args(), " ")
	}
	if p == "" {
		return fmt.Errorf("no prompt: pass --prompt TEXT")
	}
	think, err := tf.value()
	if err != nil {
		return err
	}
	opts, err := sf.options()
	if err != nil {
		return err
	}
	e, err := mf.load()
	if err != nil {
		return err
	}
	defer e.Close()
	tf.checkModel(e, os.Stderr)
	s, err := e.NewSession()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	pr := &streamPrinter{w: os.Stdout}
	res, err := s.Generate(ctx, engine.Request{Prompt: p, Raw: *raw, Think: think, Sample: opts, MaxTokens: *count, Stop: stops}, pr.event)
	pr.endThinking()
	fmt.Println()
	if res != nil {
		printStats(os.Stderr, res.Stats)
	}
	if err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
