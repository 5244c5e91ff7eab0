// Package engine is ember's front door: load a GGUF model onto a backend,
// open sessions, and generate text from prompts or chat messages with
// streamed tokens, cancellation through a context, statistics, and reuse of
// the KV cache across the turns of a session. The CLI, the server and the
// browser entry point all go through it.
package engine

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/emberllm/ember/engine/chat"
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/engine/sample/grammar"
	"github.com/emberllm/ember/engine/tokenizer"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
)

// DefaultContext is the KV cache size when Options.Context is zero, capped
// by the model's trained context.
const DefaultContext = 4096

// Options configure loading.
type Options struct {
	// Backend runs the model; nil means the CPU backend with Threads workers.
	Backend gpu.Backend
	// Threads for the CPU backend; 0 means one per core.
	Threads int
	// Mapped keeps the CPU backend's weights in the file mapping rather
	// than copying them (less memory, slower decode on some machines).
	Mapped bool
	// Context is the number of positions of each session's KV cache.
	Context int
	// Progress, when set, hears the weight bytes loaded so far and the
	// file's total after each tensor (model.LoadProgress).
	Progress func(done, total int64)
}

// Engine is a loaded model: weights on a backend, tokenizer, chat format.
type Engine struct {
	File      *gguf.Reader
	Model     *model.Model
	Tokenizer *tokenizer.Tokenizer
	Chat      *chat.Formatter
	Backend   gpu.Backend
	Context   int
	ownsFile  bool

	vocabOnce sync.Once
	vocab     *grammar.Vocab
}

// GrammarVocab is the vocabulary as a grammar constrains it (built once:
// every token's text piece, sorted).
func (e *Engine) GrammarVocab() *grammar.Vocab {
	e.vocabOnce.Do(func() {
		t := e.Tokenizer
		e.vocab = grammar.NewVocab(t.VocabSize(), t.TextPiece, t.EOGs())
	})
	return e.vocab
}

// Load opens a GGUF file and loads it.
func Load(path string, opts Options) (*Engine, error) {
	r, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	e, err := New(r, opts)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	e.ownsFile = true
	return e, nil
}

// New loads an already opened file; the caller keeps ownership of r.
func New(r *gguf.Reader, opts Options) (*Engine, error) {
	tok, err := tokenizer.FromGGUF(&r.Metadata)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	cf, err := chat.New(&r.Metadata)
	if err != nil {
		return nil, fmt.Errorf("chat format: %w", err)
	}
	be := opts.Backend
	if be == nil {
		be = cpu.NewWith(cpu.Options{Threads: opts.Threads, Mapped: opts.Mapped})
	}
	m, err := model.LoadProgress(r, be, opts.Progress)
	if err != nil {
		return nil, err
	}
	if c, ok := be.(gpu.WeightCopier); ok && c.CopiesWeights() {
		// The weights now live in the backend's memory: the file's pages
		// need not stay resident as well.
		r.DropPages()
	}
	if m.Config.Vocab != tok.VocabSize() {
		return nil, fmt.Errorf("the model has %d output rows but the tokenizer %d tokens", m.Config.Vocab, tok.VocabSize())
	}
	ctx := opts.Context
	if ctx <= 0 {
		ctx = DefaultContext
	}
	if ctx > m.Config.ContextLen {
		ctx = m.Config.ContextLen
	}
	return &Engine{File: r, Model: m, Tokenizer: tok, Chat: cf, Backend: be, Context: ctx}, nil
}

// Close releases the backend and, when Load opened it, the file.
func (e *Engine) Close() error {
	var errs []error
	if e.Backend != nil {
		errs = append(errs, e.Backend.Close())
	}
	if e.ownsFile {
		errs = append(errs, e.File.Close())
	}
	return errors.Join(errs...)
}

// Describe writes a one-paragraph summary of the loaded model.
func (e *Engine) Describe(w io.Writer) {
	c := e.Model.Config
	fmt.Fprintf(w, "model: %s, %d layers, dim %d, %d heads (%d kv), vocab %d, context %d, backend %s, %.1f MiB of weights\n",
		c.Arch, c.Layers, c.Dim, c.Heads, c.KVHeads, c.Vocab, e.Context, e.Backend.Name(), float64(e.Model.WeightBytes)/(1<<20))
}
