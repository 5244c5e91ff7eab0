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
	"sync"

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
	if err := checkCount(*count, "until the context is full"); err != nil {
		return err
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
	return chatLoop(os.Stdin, os.Stdout, s, chatConfig{system: *system, think: think, req: engine.Request{Sample: opts, MaxTokens: *count}})
}

type chatConfig struct {
	system string
	think  *bool
	req    engine.Request
}

// chatLoop reads user turns line by line ("""  starts and ends a multi-line
// turn) and streams answers. Ctrl-C stops the answer being written, not the
// program; at the prompt it leaves, as /exit and the end of input do;
// /reset starts over.
func chatLoop(in io.Reader, out io.Writer, s *engine.Session, cfg chatConfig) error {
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	return chatTurns(in, out, s, cfg, interrupts)
}

// chatTurns is chatLoop with the interrupts given (tests send their own).
func chatTurns(in io.Reader, out io.Writer, s *engine.Session, cfg chatConfig, interrupts <-chan os.Signal) error {
	var history []chat.Message
	if cfg.system != "" {
		history = append(history, chat.Message{Role: "system", Content: cfg.system})
	}
	base := len(history)
	lines := readLines(in)
	fmt.Fprintln(out, "Type a message; /reset forgets the conversation, /exit or Ctrl-C leaves, Ctrl-C stops an answer.")
	for {
		fmt.Fprint(out, ">>> ")
		line, ok, interrupted := readTurn(lines, interrupts, out)
		if interrupted {
			fmt.Fprintln(out)
			return nil
		}
		if !ok {
			fmt.Fprintln(out)
			return lines.err()
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

// lineSource delivers the lines of the input from a goroutine, so that
// waiting for the next one can be interrupted.
type lineSource struct {
	ch   chan string
	mu   sync.Mutex
	fail error
}

func readLines(in io.Reader) *lineSource {
	ls := &lineSource{ch: make(chan string)}
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			ls.ch <- sc.Text()
		}
		ls.mu.Lock()
		ls.fail = sc.Err()
		ls.mu.Unlock()
		close(ls.ch)
	}()
	return ls
}

func (ls *lineSource) err() error {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.fail
}

// next waits for a line, the end of input (ok false) or an interrupt.
func (ls *lineSource) next(interrupts <-chan os.Signal) (line string, ok, interrupted bool) {
	select {
	case line, ok = <-ls.ch:
		return line, ok, false
	case <-interrupts:
		return "", false, true
	}
}

func readTurn(lines *lineSource, interrupts <-chan os.Signal, out io.Writer) (string, bool, bool) {
	line, ok, intr := lines.next(interrupts)
	if !ok || intr {
		return "", ok, intr
	}
	if strings.TrimSpace(line) != `"""` {
		return line, true, false
	}
	var parts []string
	for {
		fmt.Fprint(out, "... ")
		l, ok, intr := lines.next(interrupts)
		if intr {
			return "", false, true
		}
		if !ok {
			return strings.Join(parts, "\n"), len(parts) > 0, false
		}
		if strings.TrimSpace(l) == `"""` {
			return strings.Join(parts, "\n"), true, false
		}
		parts = append(parts, l)
	}
}
