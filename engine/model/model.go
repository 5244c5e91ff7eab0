package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// network is one architecture family with its weights bound.
type network interface {
	// build adds the step's ops to b's graph, ending with the logits of
	// the last tokens written to b.logits {Vocab, outputs}.
	build(b *builder, tokens *gpu.Tensor)
	// cacheShape is the row size of the key and value caches of a layer;
	// dv = 0 means values are read from the key cache (MLA).
	cacheShape() (dk, dv int)
}

type family struct {
	configure func(c *Config, m *meta) error
	bind      func(c *Config, w *weights) (network, error)
}

var families = map[string]family{
	"llama": {configureLlama, bindLlama},
	"qwen2": {configureLlama, bindLlama},
	"qwen3": {configureLlama, bindLlama},
	// mixture of experts and latent attention
	"qwen3moe":  {configureQwen3MoE, bindQwen3MoE},
	"olmoe":     {configureOLMoE, bindOLMoE},
	"deepseek2": {configureDeepSeek2, bindDeepSeek2},
}

func supportedList() string {
	names := make([]string, 0, len(families))
	for n := range families {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// Model is an architecture with its weights on a backend.
type Model struct {
	Config      *Config
	Backend     gpu.Backend
	WeightBytes int64 // bytes of weights bound
	decodeBytes int64
	net         network
}

// Load reads the config and binds the weights of r onto backend b.
func Load(r *gguf.Reader, b gpu.Backend) (*Model, error) { return LoadProgress(r, b, nil) }

// LoadProgress is Load calling progress, when not nil, after each weight
// it binds with the bytes bound so far and the file's tensor bytes (an
// upper bound: a file may hold tensors the model does not bind).
func LoadProgress(r *gguf.Reader, b gpu.Backend, progress func(done, total int64)) (*Model, error) {
	c, err := ReadConfig(&r.Metadata)
	if err != nil {
		return nil, err
	}
	w := newWeights(r, b)
	w.progress = progress
	for _, t := range r.Tensors {
		w.total += int64(t.Size)
	}
	net, err := families[c.Arch].bind(c, w)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Arch, err)
	}
	if unused := w.unused(); len(unused) > 0 {
		return nil, fmt.Errorf("%s: %w", c.Arch, unusedError(c.Arch, unused))
	}
	// A device backend may still hold the last weights' uploads; loading
	// ends when they are on the device, not in the first step.
	if err := b.Sync(); err != nil {
		return nil, fmt.Errorf("%s: uploading the weights: %w", c.Arch, err)
	}
	return &Model{Config: c, Backend: b, WeightBytes: w.bytes, decodeBytes: decodeBytes(c, r, w), net: net}, nil
}

// decodeBytes estimates the weight bytes one decode token reads: every
// matrix bound once, one row of the embedding table (the whole table when
// it is also the output), and of the routed experts only the chosen ones.
func decodeBytes(c *Config, r *gguf.Reader, w *weights) int64 {
	var n int64
	_, tied := r.Tensor("output.weight")
	tied = !tied
	for _, t := range r.Tensors {
		if !w.bound(t.Name) {
			continue
		}
		size := int64(t.Size)
		switch {
		case t.Name == "token_embd.weight" && !tied:
			size /= int64(t.Dims[len(t.Dims)-1])
		case strings.HasSuffix(t.Name, "_exps.weight") && c.Experts > 0:
			size = size * int64(c.ExpertsUsed) / int64(c.Experts)
		}
		n += size
	}
	return n
}

// DecodeBytes is the weight bytes one decode token reads.
func (m *Model) DecodeBytes() int64 { return m.decodeBytes }

// Cache is a KV cache: per layer, key and value rows in F16 as llama.cpp
// keeps them. A cache of one sequence holds Ctx rows, position p at row p;
// a cache shared by several sequences (NewCacheRows) holds more, each
// sequence's Ctx positions from a first row of its own (gpu.Place).
type Cache struct {
	Ctx  int // positions of one sequence
	Rows int // rows of each layer's cache
	K, V []gpu.Buffer
}

// NewCache allocates a cache for ctx positions.
func (m *Model) NewCache(ctx int) (*Cache, error) { return m.NewCacheRows(ctx, ctx) }

// CacheRowBytes is the memory one cache row takes over every layer (one
// token of one sequence's keys and values).
func (m *Model) CacheRowBytes() int64 {
	dk, dv := m.net.cacheShape()
	return int64(m.Config.Layers) * int64(gguf.F16.RowBytes(dk)+gguf.F16.RowBytes(max(dv, 0)))
}

// NewCacheRows allocates a cache of rows rows for sequences of up to ctx
// positions: the shared cache of a decode batch, whose slots are ranges
// of rows.
func (m *Model) NewCacheRows(ctx, rows int) (*Cache, error) {
	if ctx <= 0 {
		return nil, fmt.Errorf("context size must be positive, got %d", ctx)
	}
	if rows < ctx {
		return nil, fmt.Errorf("a cache of %d rows cannot hold a sequence of %d positions", rows, ctx)
	}
	dk, dv := m.net.cacheShape()
	c := &Cache{Ctx: ctx, Rows: rows}
	for l := 0; l < m.Config.Layers; l++ {
		k, err := m.Backend.Alloc(fmt.Sprintf("cache_k.%d", l), gguf.F16, gpu.Shape4(dk, rows))
		if err != nil {
			return nil, fmt.Errorf("allocating the KV cache: %w", err)
		}
		c.K = append(c.K, k)
		if dv > 0 {
			v, err := m.Backend.Alloc(fmt.Sprintf("cache_v.%d", l), gguf.F16, gpu.Shape4(dv, rows))
			if err != nil {
				return nil, fmt.Errorf("allocating the KV cache: %w", err)
			}
			c.V = append(c.V, v)
		} else {
			c.V = append(c.V, nil)
		}
	}
	return c, nil
}

// GraphHook, when set, sees each step's graph before it is compiled and
// may change it. It is for tests that look inside a step (the WebGPU
// tests make every activation an external buffer to compare the backends
// op by op); nothing else sets it, and it must not change while models
// build steps.
var GraphHook func(be gpu.Backend, g *gpu.Graph)

// Step is a compiled graph for a fixed number of tokens: write token ids to
// Tokens, Run at a position, then read Logits (the last token's), Next
// (its argmax) or, in a step made by NewStepTop, its Top best logits. A
// step made by NewStepOutputs has the logits of its last Outputs tokens;
// a batch step (NewBatchStep) those of every token, each token's argmax
// and candidates.
type Step struct {
	T       int
	Outputs int        // tokens whose logits the step computes, the last ones
	Tokens  gpu.Buffer // I32 {T}
	Logits  gpu.Buffer // F32 {Vocab, Outputs}
	Next    gpu.Buffer // I32 {Outputs} (one output, or a batch step)
	Top     int
	TopIDs  gpu.Buffer // I32 {Top, Outputs}: the ids of the Top largest logits, largest first
	TopVals gpu.Buffer // F32 {Top, Outputs}: those logits
	Program gpu.Program
}

// NewStep builds and compiles the graph of a step of t tokens over cache c.
func (m *Model) NewStep(c *Cache, t int) (*Step, error) { return m.NewStepTop(c, t, 0) }

// NewStepTop is NewStep with the top largest logits and their ids also
// chosen on the device (top > 0), so sampling can read back those
// candidates instead of the whole vocabulary's logits.
func (m *Model) NewStepTop(c *Cache, t, top int) (*Step, error) {
	if top < 0 || top > m.Config.Vocab {
		return nil, fmt.Errorf("%d candidates of a %d-token vocabulary", top, m.Config.Vocab)
	}
	return m.newStep(c, t, 1, top, false)
}

// NewBatchStep builds a decode step of batch tokens of as many sequences
// sharing cache c, each run at its own gpu.Place: its Logits, Next and
// (top > 0) candidates are every token's, column by column. The graph is
// gpu.Graph.Independent: each token's numbers are those a step of it
// alone gives.
func (m *Model) NewBatchStep(c *Cache, batch, top int) (*Step, error) {
	if batch < 1 || batch > gpu.MaxPlaces {
		return nil, fmt.Errorf("a batch of %d sequences (1 to %d)", batch, gpu.MaxPlaces)
	}
	if top < 0 || top > m.Config.Vocab {
		return nil, fmt.Errorf("%d candidates of a %d-token vocabulary", top, m.Config.Vocab)
	}
	return m.newStep(c, batch, batch, top, true)
}

// NewStepOutputs builds a step of t tokens whose Logits {Vocab, outputs}
// hold the logits of its last outputs tokens, in order, as llama.cpp's
// batches that ask for several outputs (perplexity): the last layer's
// feed-forward and the output head run on those tokens alone. Past one
// output it has no Next; outputs = 1 is NewStep.
func (m *Model) NewStepOutputs(c *Cache, t, outputs int) (*Step, error) {
	if outputs < 1 || outputs > t {
		return nil, fmt.Errorf("%d outputs of a %d-token step", outputs, t)
	}
	return m.newStep(c, t, outputs, 0, false)
}

func (m *Model) newStep(c *Cache, t, outputs, top int, batch bool) (*Step, error) {
	be := m.Backend
	s := &Step{T: t, Outputs: outputs, Top: top}
	var err error
	if s.Tokens, err = be.Alloc("tokens", gguf.I32, gpu.Shape4(t)); err != nil {
		return nil, err
	}
	if s.Logits, err = be.Alloc("logits", gguf.F32, gpu.Shape4(m.Config.Vocab, outputs)); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%s.step%d", m.Config.Arch, t)
	switch {
	case batch:
		name = fmt.Sprintf("%s.batch%d", m.Config.Arch, t)
	case outputs > 1:
		name += fmt.Sprintf("x%d", outputs)
	}
	g := gpu.NewGraph(name, t)
	g.Independent = batch
	// A sequence holds at most Ctx positions of the cache's Rows (a slot
	// of a batch's cache).
	g.Span = c.Ctx
	b := &builder{g: g, c: m.Config, cache: c, T: t, outs: outputs, bound: map[gpu.Buffer]*gpu.Tensor{}}
	b.logits = g.Bind("logits", s.Logits)
	m.net.build(b, g.Bind("tokens", s.Tokens))
	if outputs == 1 || batch {
		if s.Next, err = be.Alloc("next", gguf.I32, gpu.Shape4(outputs)); err != nil {
			return nil, err
		}
		g.Do(&gpu.Argmax{In: b.logits, Out: g.Bind("next", s.Next)})
	}
	if top > 0 {
		if s.TopIDs, err = be.Alloc("top_ids", gguf.I32, gpu.Shape4(top, outputs)); err != nil {
			return nil, err
		}
		if s.TopVals, err = be.Alloc("top_vals", gguf.F32, gpu.Shape4(top, outputs)); err != nil {
			return nil, err
		}
		g.Do(&gpu.TopK{In: b.logits, K: top,
			IDs: g.Bind("top_ids", s.TopIDs), Vals: g.Bind("top_vals", s.TopVals)})
	}
	if GraphHook != nil {
		GraphHook(be, g)
	}
	if s.Program, err = be.Compile(g); err != nil {
		return nil, fmt.Errorf("compiling the %d-token step: %w", t, err)
	}
	return s, nil
}
