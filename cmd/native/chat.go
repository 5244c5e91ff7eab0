package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/chat"
)

func init() {
	register("chat", "talk with a model interactively", runChat)
}

func runChat(args []string) error {
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	var mf modelFlags
	var sf sampleFlags
	var tf thinkFlags
	mf.register(fs)
	sf.register(fs)
	tf.register(fs)
	system := fs.String("system", "", "system prompt")
	count := fs.Int("count", 0, "maximum tokens per answer (0: until the context is full)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	think, err := tf.value()
	if err != nil {
		return err
	}
	opts := sf.options()
	if err := opts.Validate(); err != nil {
		return err
	}
	e, err := mf.load()
	if err != nil {
		return err
	}
	defer e.Close()
	s, err := e.NewSession()
	if err != nil {
		return err
	}
	return chatLoop(os.Stdin, os.Stdout, s, chatConfig{system: *system, think: think, req: engine.Request{Sample: opts, MaxTokens: *count}})
}

type chatConfig struct {
	system string
	think  *bool
	req    engine.Request
}

// chatLoop reads user turns line by line ("""  starts and ends a multi-line
// turn) and streams answers. Ctrl-C stops the answer being written, not the
// program; /reset starts over; /exit or end of input leaves.
func chatLoop(in io.Reader, out io.Writer, s *engine.Session, cfg chatConfig) error {
	var history []chat.Message
	if cfg.system != "" {
		history = append(history, chat.Message{Role: "system", Content: cfg.system})
	}
	base := len(history)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	fmt.Fprintln(out, "Type a message; /reset forgets the conversation, /exit leaves, Ctrl-C stops an answer.")
	for {
		fmt.Fprint(out, ">>> ")
		line, ok := readTurn(sc, out)
		if !ok {
			fmt.Fprintln(out)
			return sc.Err()
		}
		switch strings.TrimSpace(line) {
		case "":
			continue
		case "/exit", "/bye", "/quit":
			return nil
		case "/reset", "/clear":
			history = history[:base]
			s.Reset()
			fmt.Fprintln(out, "(conversation reset)")
			continue
		}
		history = append(history, chat.Message{Role: "user", Content: line})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			select {
			case <-interrupts:
				cancel()
			case <-done:
			}
		}()
		req := cfg.req
		req.Messages = history
		req.Think = cfg.think
		pr := &streamPrinter{w: out}
		res, err := s.Generate(ctx, req, pr.event)
		close(done)
		cancel()
		pr.endThinking()
		fmt.Fprintln(out)
		if err != nil && !errors.Is(err, context.Canceled) {
			history = history[:len(history)-1]
			fmt.Fprintf(out, "error: %v\n", err)
			continue
		}
		if res != nil {
			history = append(history, chat.Message{Role: "assistant", Content: res.Text, ReasoningContent: res.Reasoning})
			printStats(os.Stderr, res.Stats)
		}
	}
}

func readTurn(sc *bufio.Scanner, out io.Writer) (string, bool) {
	if !sc.Scan() {
		return "", false
	}
	line := sc.Text()
	if strings.TrimSpace(line) != `"""` {
		return line, true
	}
	var lines []string
	for {
		fmt.Fprint(out, "... ")
		if !sc.Scan() {
			return strings.Join(lines, "\n"), len(lines) > 0
		}
		if strings.TrimSpace(sc.Text()) == `"""` {
			return strings.Join(lines, "\n"), true
		}
		lines = append(lines, sc.Text())
	}
}
