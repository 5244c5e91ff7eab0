package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/sample/grammar"
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
	grammarText := fs.String("grammar", "", "a GBNF grammar (or @FILE) the output must follow, as llama.cpp's")
	schemaText := fs.String("json-schema", "", "a JSON Schema (or @FILE) the output must be a JSON value of")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkCount(*count, "until the context is full"); err != nil {
		return err
	}
	g, err := constraint(*grammarText, *schemaText)
	if err != nil {
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
	res, err := s.Generate(ctx, engine.Request{Prompt: p, Raw: *raw, Think: think, Sample: opts, MaxTokens: *count, Stop: stops, Grammar: g}, pr.event)
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

// constraint compiles --grammar or --json-schema (text, or @FILE).
func constraint(gbnf, schema string) (*grammar.Grammar, error) {
	read := func(flag, v string) (string, error) {
		if name, ok := strings.CutPrefix(v, "@"); ok {
			b, err := os.ReadFile(name)
			if err != nil {
				return "", fmt.Errorf("--%s: %w", flag, err)
			}
			return string(b), nil
		}
		return v, nil
	}
	switch {
	case gbnf != "" && schema != "":
		return nil, fmt.Errorf("--grammar and --json-schema are exclusive")
	case gbnf != "":
		text, err := read("grammar", gbnf)
		if err != nil {
			return nil, err
		}
		g, err := grammar.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("--grammar: %s", strings.TrimPrefix(err.Error(), "grammar: "))
		}
		return g, nil
	case schema != "":
		text, err := read("json-schema", schema)
		if err != nil {
			return nil, err
		}
		g, err := grammar.FromJSONSchema([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("--json-schema: %s", strings.TrimPrefix(err.Error(), "json schema: "))
		}
		return g, nil
	}
	return nil, nil
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
