package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/emberllm/ember/engine/perplexity"
)

func init() {
	register("perplexity", "perplexity and KL divergence of a text (like llama-perplexity)", runPerplexity)
}

func runPerplexity(args []string) error { return perplexityCmd(os.Stdout, os.Stderr, args) }

// perplexityCmd is the command writing its results to stdout and its
// diagnostics (and, on a terminal, the progress line) to stderr.
func perplexityCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("perplexity", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var mf modelFlags
	mf.register(fs)
	file := fs.String("file", "", "the text to score (plain text)")
	basePath := fs.String("kl-divergence-base", "", "base-logits file: written by a perplexity run, read with --kl-divergence (llama-perplexity's format)")
	kld := fs.Bool("kl-divergence", false, "compare with the --kl-divergence-base file instead of writing it")
	chunks := fs.Int("chunks", 0, "score at most this many chunks (0: all)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `Usage: ember perplexity --model M --file TEXT [--ctx 512] [--chunks N]
       ember perplexity --model BASE --file TEXT --kl-divergence-base FILE   (write the base logits)
       ember perplexity --model M --kl-divergence-base FILE --kl-divergence  (compare with them)

The text is cut into chunks of --ctx tokens, each evaluated from an empty
cache with BOS first and scored over its second half, as llama.cpp's
llama-perplexity does; base files are llama-perplexity's, in either direction.
A --kl-divergence run takes its context and tokens from the base file.`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *kld && *basePath == "" {
		return errors.New("--kl-divergence needs --kl-divergence-base FILE")
	}
	if !*kld && *file == "" {
		return errors.New("no text: pass --file TEXT")
	}
	ctx := mf.ctx
	if ctx == 0 {
		ctx = 512
	}
	var text string
	if *file != "" {
		b, err := os.ReadFile(*file)
		if err != nil {
			return err
		}
		text = string(b)
	}
	e, err := mf.load()
	if err != nil {
		return err
	}
	defer e.Close()
	if ctx > e.Model.Config.ContextLen && !*kld {
		fmt.Fprintf(stderr, "perplexity: the model was trained on only %d context tokens (%d specified)\n", e.Model.Config.ContextLen, ctx)
	}
	o := perplexity.Options{Ctx: ctx, Chunks: *chunks, Threads: mf.threads, Out: stdout, Log: stderr}
	line := newProgressLine(stderr)
	if line != nil {
		o.Progress = line.chunk
		o.Out = line.before(stdout)
		o.Log = line.before(stderr)
		// llama-perplexity writes the chunks' perplexities on one line,
		// which a progress line on the same terminal would overwrite.
		o.Lines = isTerminal(stdout)
	}
	defer line.clear()
	if *kld {
		f, err := os.Open(*basePath)
		if err != nil {
			return err
		}
		defer f.Close()
		if text != "" {
			if o.Tokens, err = perplexity.Tokenize(e, text); err != nil {
				return err
			}
		}
		_, err = perplexity.KLDivergence(e, f, o)
		return err
	}
	var base io.Writer
	if *basePath != "" {
		f, err := os.Create(*basePath)
		if err != nil {
			return err
		}
		defer f.Close()
		base = f
	}
	if _, err := perplexity.Perplexity(e, text, base, o); err != nil {
		return err
	}
	if f, ok := base.(*os.File); ok {
		return f.Close()
	}
	return nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressLine is the rewritten line of a long run's progress on a
// terminal: the chunk, the step within it, the rate and the time left.
type progressLine struct {
	out   io.Writer
	start time.Time
	last  time.Time
	shown bool
}

// newProgressLine returns nil when out is not a terminal.
func newProgressLine(out io.Writer) *progressLine {
	if !isTerminal(out) {
		return nil
	}
	return &progressLine{out: out, start: time.Now()}
}

func (p *progressLine) chunk(c, chunks, step, steps int) {
	now := time.Now()
	if now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	done := float64(c) + float64(step)/float64(steps)
	el := now.Sub(p.start).Seconds()
	left := ""
	if done > 0 {
		left = fmt.Sprintf(", %.1f s a chunk, %s left", el/done, (time.Duration(el/done*(float64(chunks)-done)) * time.Second).Round(time.Second))
	}
	fmt.Fprintf(p.out, "\r\033[Kchunk %d/%d (%.0f%%)%s", c+1, chunks, 100*done/float64(chunks), left)
	p.shown = true
}

func (p *progressLine) clear() {
	if p != nil && p.shown {
		fmt.Fprint(p.out, "\r\033[K")
		p.shown = false
	}
}

// before wraps w so that the progress line is cleared before each write.
func (p *progressLine) before(w io.Writer) io.Writer {
	return writerFunc(func(b []byte) (int, error) {
		p.clear()
		return w.Write(b)
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
