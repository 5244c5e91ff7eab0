package synth

import (
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quantize"
)

// Options control how a synthetic model is written.
type Options struct {
	Scheme  quantize.Scheme // tensor types: one everywhere, or a mix such as Q4_K_M
	Seed    uint64
	Workers int // goroutines generating and quantizing (default 2)
	// Progress, if set, is called after every chunk written.
	Progress func(Progress)
}

// Progress reports how far a write has got.
type Progress struct {
	Tensor, Tensors int    // index of the tensor being written, and the count
	Name            string // its name
	Done, Total     int64  // tensor bytes written so far, and in all
}

// Typed is a planned tensor with the type it is written in.
type Typed struct {
	Tensor
	Type gguf.TensorType
}

// Bytes is the tensor's size in the file.
func (t *Typed) Bytes() int64 {
	return int64(t.Elements()) / int64(t.Type.BlockSize()) * int64(t.Type.TypeSize())
}

// Layout is the tensor plan with each tensor's type under the scheme:
// weight matrices in the scheme's types (with llama.cpp's fallbacks for
// rows a block does not divide), norms, biases, the router and rope
// factors in F32.
func Layout(c *Config, s quantize.Scheme) []Typed {
	plan := c.Plan()
	names := make([]string, len(plan))
	for i, t := range plan {
		names[i] = t.Name
	}
	p := quantize.NewPolicy(s, c.quantModel(), names)
	out := make([]Typed, len(plan))
	for i, t := range plan {
		typ := gguf.F32
		if t.Kind == Matrix {
			typ = p.TypeFor(t.Name, t.Dims, gguf.F32)
		}
		out[i] = Typed{t, typ}
	}
	return out
}

func (c *Config) quantModel() quantize.Model {
	return quantize.Model{Arch: c.Arch.GGUFArch(), Layers: c.Layers, Experts: c.Experts, Heads: c.Heads, HeadsKV: c.HeadsKV}
}

// Apply sets the vocabulary size from the tokenizer and checks the result.
func (c *Config) Apply(v *Vocab) error {
	c.Vocab = v.Size
	return c.Validate()
}

// Write streams the model to w: metadata (architecture keys, file type,
// the tokenizer v) then every tensor, generated chunk by chunk from the
// seed. c.Vocab must equal v.Size (see Apply).
func Write(w io.Writer, c *Config, v *Vocab, opt Options) (int64, error) {
	if c.Vocab != v.Size {
		return 0, fmt.Errorf("synth: config has %d tokens, tokenizer %d", c.Vocab, v.Size)
	}
	if err := c.Validate(); err != nil {
		return 0, err
	}
	if !quantize.CanEncode(opt.Scheme.Default) {
		return 0, fmt.Errorf("synth: cannot write tensors of type %s", opt.Scheme.Default)
	}
	if opt.Workers <= 0 {
		opt.Workers = 2
	}
	var kvs kvList
	c.metadata(&kvs)
	kvs.Set("general.file_type", gguf.ValU32(uint32(opt.Scheme.File)))
	if opt.Scheme.Quantized() {
		kvs.Set("general.quantization_version", gguf.ValU32(2))
	}
	for _, kv := range v.KVs {
		kvs.Set(kv.Key, kv.Value)
	}
	gw := gguf.NewWriter()
	gw.Metadata.KVs = kvs
	layout := Layout(c, opt.Scheme)
	var total, done int64
	for i := range layout {
		total += layout[i].Bytes()
	}
	for i := range layout {
		t := layout[i]
		if !quantize.CanEncode(t.Type) {
			return 0, fmt.Errorf("synth: %s needs type %s, which cannot be written", t.Name, t.Type)
		}
		idx := i
		fill := func(out io.Writer) error {
			report := func(n int) {
				done += int64(n)
				if opt.Progress != nil {
					opt.Progress(Progress{idx, len(layout), t.Name, done, total})
				}
			}
			return c.fill(out, &t, opt, report)
		}
		if err := gw.AddTensor(t.Name, t.Type, t.Dims, fill); err != nil {
			return 0, err
		}
	}
	return gw.WriteTo(w)
}

// chunkValues is about how many values one chunk holds: big enough to
// keep the goroutines busy, small enough that a few chunks in flight cost
// a few MB.
const chunkValues = 1 << 18

var floatPool = sync.Pool{New: func() any { return new([]float32) }}

// fill writes one tensor's bytes.
func (c *Config) fill(out io.Writer, t *Typed, opt Options, report func(int)) error {
	row := int(t.Dims[0])
	rows := int(t.Elements()) / row
	if t.Kind == RopeFreqs {
		vals := llama3Factors(c.HeadDim, float64(c.RopeBase), c.Llama3)
		b := make([]byte, t.Type.RowBytes(len(vals)))
		if err := quantize.Encode(t.Type, vals, b); err != nil {
			return err
		}
		_, err := out.Write(b)
		report(len(b))
		return err
	}
	mean, std := float32(0), float32(1/math.Sqrt(float64(row)))
	switch t.Kind {
	case Norm:
		mean, std = 1, 0.1
	case Bias:
		std = 0.01
	case ProjBias:
		std = 0.5
	}
	perChunk := max(1, chunkValues/row)
	chunks := (rows + perChunk - 1) / perChunk
	produce := func(i int, buf []byte) ([]byte, error) {
		n := min(perChunk, rows-i*perChunk)
		vp := floatPool.Get().(*[]float32)
		defer floatPool.Put(vp)
		if cap(*vp) < n*row {
			*vp = make([]float32, n*row)
		}
		vals := (*vp)[:n*row]
		r := chunkRNG(opt.Seed, t.Name, i)
		r.normals(vals, mean, std)
		size := t.Type.RowBytes(row) * n
		if cap(buf) < size {
			buf = make([]byte, size)
		}
		buf = buf[:size]
		return buf, quantize.Encode(t.Type, vals, buf)
	}
	return quantize.WriteOrdered(out, chunks, opt.Workers, produce, report)
}
