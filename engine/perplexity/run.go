package perplexity

import (
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/emberllm/ember/engine"
)

// Options are a run's settings and where it writes.
type Options struct {
	// Ctx is the tokens of a chunk (llama-perplexity's -c; a KL-divergence
	// run takes the base file's).
	Ctx int
	// Chunks, when positive, caps the chunks evaluated.
	Chunks int
	// Threads for the per-position arithmetic (0: one a core).
	Threads int
	// Out receives the results (what llama-perplexity prints on stdout),
	// Log the diagnostics (its stderr); nil discards.
	Out, Log io.Writer
	// Lines puts each chunk's running perplexity on a line of its own
	// (llama-perplexity writes them on one line).
	Lines bool
	// Progress, when set, hears each finished step of each chunk.
	Progress func(chunk, chunks, step, steps int)
	// Tokens, in a KL-divergence run, are the text's tokens as this model
	// makes them; the base file's must be their start.
	Tokens []int32
}

func (o *Options) defaults() {
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
}

// Result is a run's outcome.
type Result struct {
	PPL, Err float64 // the final estimate and its error
	Count    int     // positions scored
	Chunks   int
	Stats    *Stats // a KL-divergence run's statistics (at least 100 positions)
}

// Tokenize is the text's tokens as llama-perplexity makes them: BOS first
// where the vocabulary adds it, special tokens' texts read as text.
func Tokenize(e *engine.Engine, text string) ([]int32, error) {
	if e.Tokenizer.AddEOS() {
		return nil, errors.New("the vocabulary appends EOS to every text, which perplexity cannot score (llama-perplexity refuses it too)")
	}
	return e.Tokenizer.Encode(text, true, false), nil
}

// Perplexity scores text in chunks of o.Ctx tokens and, when base is not
// nil, writes the base-logits file of the run to it.
func Perplexity(e *engine.Engine, text string, base io.Writer, o Options) (*Result, error) {
	o.defaults()
	ctx := o.Ctx
	if ctx < 4 {
		return nil, fmt.Errorf("a context of %d tokens is too small to score (at least 4)", ctx)
	}
	t0 := time.Now()
	fmt.Fprintf(o.Log, "perplexity: tokenizing the input ..\n")
	tokens, err := Tokenize(e, text)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "perplexity: tokenization took %g ms\n", float64(time.Since(t0).Microseconds())/1e3)
	if len(tokens) < 2*ctx {
		return nil, fmt.Errorf("you need at least %d tokens to evaluate perplexity with a context of %d; the text tokenizes to only %d", 2*ctx, ctx, len(tokens))
	}
	chunks := len(tokens) / ctx
	if o.Chunks > 0 {
		chunks = min(chunks, o.Chunks)
	}
	vocab := e.Model.Config.Vocab
	var bw *BaseWriter
	if base != nil {
		if bw, err = NewBaseWriter(base, BaseHeader{Ctx: ctx, Vocab: vocab, Chunks: chunks, Tokens: tokens[:chunks*ctx]}); err != nil {
			return nil, err
		}
	}
	nv := rowLen(vocab)
	vals := make([]float64, scored(ctx))
	var ppl PPL
	sep := ","
	if o.Lines {
		sep = ",\n"
	}
	fmt.Fprintf(o.Log, "perplexity: calculating perplexity over %d chunks, n_ctx=%d, batch_size=%d, n_seq=1\n", chunks, ctx, ctx)
	err = eachChunk(e, tokens, ctx, chunks, &o, "perplexity", func(c int, logits []float32, next []int32) error {
		parallel(len(vals), o.Threads, func(j int) {
			l := logits[j*vocab : (j+1)*vocab]
			if bw != nil {
				vals[j] = quantizeRow(l, next[j], bw.Rows()[j*nv:(j+1)*nv])
			} else {
				vals[j] = nll(l, next[j])
			}
		})
		for _, v := range vals {
			ppl.Add(v)
		}
		if bw != nil {
			if err := bw.WriteChunk(); err != nil {
				return err
			}
		}
		fmt.Fprintf(o.Out, "[%d]%.4f%s", c+1, ppl.Value(), sep)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if bw != nil {
		if err := bw.Flush(); err != nil {
			return nil, err
		}
	}
	if !o.Lines {
		fmt.Fprintln(o.Out)
	}
	res := &Result{Count: ppl.Count, Chunks: chunks}
	var ok bool
	res.PPL, res.Err, ok = ppl.Estimate()
	if !ok {
		fmt.Fprintln(o.Out, "Unexpected negative standard deviation of log(prob)")
	} else {
		fmt.Fprintf(o.Out, "Final estimate: PPL = %.4f +/- %.5f\n", res.PPL, res.Err)
	}
	return res, nil
}

// KLDivergence compares the model's next-token distributions with the
// base file's, chunk by chunk, and prints llama-perplexity's statistics.
func KLDivergence(e *engine.Engine, base io.Reader, o Options) (*Result, error) {
	o.defaults()
	br, err := NewBaseReader(base)
	if err != nil {
		return nil, err
	}
	vocab := e.Model.Config.Vocab
	if br.Vocab != vocab {
		return nil, fmt.Errorf("inconsistent vocabulary: the base file's has %d tokens, the model's %d", br.Vocab, vocab)
	}
	for i, t := range br.Tokens {
		if t < 0 || int(t) >= vocab {
			return nil, fmt.Errorf("the base file's token %d is %d, outside the model's vocabulary of %d", i, t, vocab)
		}
	}
	if o.Tokens != nil {
		if err := sameTokens(br.Tokens, o.Tokens); err != nil {
			return nil, err
		}
	}
	ctx, chunks := br.Ctx, br.Chunks
	if o.Chunks > 0 {
		chunks = min(chunks, o.Chunks)
	}
	nv := rowLen(vocab)
	rows := make([]klRow, scored(ctx))
	var k KLD
	fmt.Fprintf(o.Log, "kl_divergence: computing over %d chunks, n_ctx=%d, batch_size=%d, n_seq=1\n", chunks, ctx, ctx)
	err = eachChunk(e, br.Tokens, ctx, chunks, &o, "kl_divergence", func(c int, logits []float32, next []int32) error {
		baseRows, err := br.ReadChunk()
		if err != nil {
			return fmt.Errorf("chunk %d: %w", c+1, err)
		}
		parallel(len(rows), o.Threads, func(j int) {
			rows[j] = compareRow(logits[j*vocab:(j+1)*vocab], baseRows[j*nv:(j+1)*nv], next[j])
		})
		if c == 0 {
			fmt.Fprintf(o.Out, "\n%s", chunkHeader)
		}
		for _, r := range rows {
			k.Add(r)
		}
		k.writeChunk(o.Out, c+1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(o.Out)
	res := &Result{Count: k.Count, Chunks: chunks}
	lp, lpe := meanErr(k.sumNLL, k.sumNLL2, k.Count)
	res.PPL, res.Err = expMean(lp, lpe)
	if k.Count < 100 {
		fmt.Fprintf(o.Log, "kl_divergence: %d positions are too few for statistics (100 at least)\n", k.Count)
		return res, nil
	}
	s := k.Stats()
	res.Stats = &s
	s.Write(o.Out)
	return res, nil
}

func expMean(lp, lpe float64) (float64, float64) {
	p := math.Exp(lp)
	return p, p * lpe
}

// eachChunk evaluates the first chunks chunks of ctx tokens of tokens, each
// from an empty cache with its first token replaced by BOS where the
// vocabulary adds one (as llama-perplexity does), and hands f the chunk's
// number, the logits of its scored positions (Vocab each) and the tokens
// they predict. name heads the line of the first chunk's time.
func eachChunk(e *engine.Engine, tokens []int32, ctx, chunks int, o *Options, name string, f func(c int, logits []float32, next []int32) error) error {
	ev, err := NewEvaluator(e.Model, ctx)
	if err != nil {
		return err
	}
	chunk := make([]int32, ctx)
	for c := 0; c < chunks; c++ {
		start := c * ctx
		t0 := time.Now()
		copy(chunk, tokens[start:start+ctx])
		if e.Tokenizer.AddBOS() {
			chunk[0] = e.Tokenizer.BOS()
		}
		var done func(int)
		if o.Progress != nil {
			done = func(s int) { o.Progress(c, chunks, s+1, ev.Steps()) }
		}
		if err := ev.Chunk(chunk, done); err != nil {
			return fmt.Errorf("chunk %d: %w", c+1, err)
		}
		if c == 0 {
			logETA(o.Log, name, time.Since(t0), chunks)
		}
		// The scored positions are First..Ctx-2, each predicting the next.
		n := scored(ctx)
		if err := f(c, ev.Logits[:n*ev.Vocab], tokens[start+ev.First+1:start+ctx]); err != nil {
			return err
		}
	}
	return nil
}

// logETA prints llama-perplexity's line after the first chunk.
func logETA(w io.Writer, name string, d time.Duration, chunks int) {
	s := d.Seconds()
	total := int(s * float64(chunks))
	fmt.Fprintf(w, "%s: %.2f seconds per pass - ETA ", name, s)
	if total >= 3600 {
		fmt.Fprintf(w, "%d hours ", total/3600)
		total %= 3600
	}
	fmt.Fprintf(w, "%.2f minutes\n", float64(total)/60)
}

// sameTokens checks that the base file's tokens start the text's.
func sameTokens(base, text []int32) error {
	if len(text) < len(base) {
		return fmt.Errorf("the base file holds %d tokens, more than the text's %d", len(base), len(text))
	}
	for i := range base {
		if base[i] != text[i] {
			return fmt.Errorf("the base file's token %d is %d where the text has %d: it was made from another text or tokenizer", i, base[i], text[i])
		}
	}
	return nil
}

// parallel runs f(0..n-1) on up to threads goroutines.
func parallel(n, threads int, f func(int)) {
	threads = min(threads, n)
	if threads <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			for i := t; i < n; i += threads {
				f(i)
			}
		}(t)
	}
	wg.Wait()
}
