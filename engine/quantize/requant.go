package quantize

import (
	"fmt"
	"io"
	"sync"

	"github.com/emberllm/ember/engine/gguf"
)

// Options control Requantize.
type Options struct {
	Scheme   Scheme
	Workers  int            // goroutines converting (default 2)
	Progress func(Progress) // called after every chunk written, if set
}

// Progress reports how far a conversion has got.
type Progress struct {
	Tensor, Tensors int
	Name            string
	Done, Total     int64 // output tensor bytes
}

// Result says what Requantize did.
type Result struct {
	Types     map[string]gguf.TensorType // each tensor's new type
	Fallbacks []string                   // tensors whose rows did not fit the wanted type
	Bytes     int64                      // file size written
}

// ModelOf reads the facts the type policy needs from a file's metadata.
func ModelOf(m *gguf.Metadata) Model {
	arch, _ := m.String("general.architecture")
	get := func(k string) int {
		v, _ := m.Uint(arch + "." + k)
		return int(v)
	}
	heads := get("attention.head_count")
	kv := heads
	if m.Has(arch + ".attention.head_count_kv") {
		kv = get("attention.head_count_kv")
	}
	return Model{Arch: arch, Layers: get("block_count"), Experts: get("expert_count"), Heads: heads, HeadsKV: kv}
}

// Plan returns each tensor's new type under the scheme, in file order,
// and the tensors that needed a fallback type.
func Plan(f *gguf.File, s Scheme) (map[string]gguf.TensorType, []string) {
	ts := f.InFileOrder()
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	p := NewPolicy(s, ModelOf(&f.Metadata), names)
	out := make(map[string]gguf.TensorType, len(ts))
	for _, t := range ts {
		out[t.Name] = p.TypeFor(t.Name, t.Dims, t.Type)
	}
	return out, p.Fallbacks
}

// chunkValues is about how many values one conversion chunk holds.
const chunkValues = 1 << 18

// Requantize writes the model read from r to w with its weight matrices
// converted under opt.Scheme: metadata copied (general.file_type set to the
// scheme's), tensors in the same order, each converted chunk by chunk
// (decoded to float32, encoded again), so memory stays small whatever the
// model's size. Tensors already of the wanted type are copied unchanged.
func Requantize(r *gguf.Reader, w io.Writer, opt Options) (*Result, error) {
	if opt.Workers <= 0 {
		opt.Workers = 2
	}
	types, fallbacks := Plan(r.File, opt.Scheme)
	ts := r.InFileOrder()
	gw := gguf.NewWriter()
	quantized := false
	var total int64
	for _, t := range ts {
		nt := types[t.Name]
		if nt != t.Type {
			if !CanDecode(t.Type) {
				return nil, fmt.Errorf("quantize: %s: cannot read type %s", t.Name, t.Type)
			}
			if !CanEncode(nt) {
				return nil, fmt.Errorf("quantize: %s: cannot write type %s", t.Name, nt)
			}
		}
		quantized = quantized || nt.BlockSize() > 1
		total += int64(t.Elements()) / int64(nt.BlockSize()) * int64(nt.TypeSize())
	}
	kvs := append([]gguf.KV(nil), r.Metadata.KVs...)
	set := func(k string, v gguf.Value) {
		for i := range kvs {
			if kvs[i].Key == k {
				kvs[i].Value = v
				return
			}
		}
		kvs = append(kvs, gguf.KV{Key: k, Value: v})
	}
	set("general.file_type", gguf.ValU32(uint32(opt.Scheme.File)))
	if quantized {
		set("general.quantization_version", gguf.ValU32(2))
	}
	gw.Metadata.KVs = kvs

	var done int64
	for i, t := range ts {
		t, idx := t, i
		nt := types[t.Name]
		report := func(n int) {
			done += int64(n)
			if opt.Progress != nil {
				opt.Progress(Progress{idx, len(ts), t.Name, done, total})
			}
		}
		fill := func(out io.Writer) error { return convert(r, t, nt, out, opt.Workers, report) }
		if err := gw.AddTensor(t.Name, nt, t.Dims, fill); err != nil {
			return nil, err
		}
	}
	n, err := gw.WriteTo(w)
	if err != nil {
		return nil, err
	}
	return &Result{Types: types, Fallbacks: fallbacks, Bytes: n}, nil
}

var floatPool = sync.Pool{New: func() any { return new([]float32) }}

// convert streams one tensor: rows are read in chunks straight from the
// file, so neither the source nor the result is ever whole in memory.
func convert(r *gguf.Reader, t *gguf.TensorInfo, nt gguf.TensorType, out io.Writer, workers int, report func(int)) error {
	src := r.TensorReader(t)
	ra, ok := src.(io.ReaderAt)
	if !ok {
		return fmt.Errorf("quantize: %s: tensor data is not seekable", t.Name)
	}
	row := int(t.Dims[0])
	rows := int(t.Elements()) / row
	perChunk := max(1, chunkValues/row)
	chunks := (rows + perChunk - 1) / perChunk
	inRow, outRow := t.Type.RowBytes(row), nt.RowBytes(row)
	produce := func(i int, buf []byte) ([]byte, error) {
		n := min(perChunk, rows-i*perChunk)
		in := make([]byte, n*inRow)
		if _, err := ra.ReadAt(in, int64(i*perChunk*inRow)); err != nil {
			return nil, fmt.Errorf("quantize: reading %s: %w", t.Name, err)
		}
		if nt == t.Type {
			return in, nil
		}
		vp := floatPool.Get().(*[]float32)
		defer floatPool.Put(vp)
		if cap(*vp) < n*row {
			*vp = make([]float32, n*row)
		}
		vals := (*vp)[:n*row]
		if err := Decode(t.Type, in, vals); err != nil {
			return nil, fmt.Errorf("quantize: %s: %w", t.Name, err)
		}
		size := n * outRow
		if cap(buf) < size {
			buf = make([]byte, size)
		}
		buf = buf[:size]
		if err := Encode(nt, vals, buf); err != nil {
			return nil, fmt.Errorf("quantize: %s: %w", t.Name, err)
		}
		return buf, nil
	}
	return WriteOrdered(out, chunks, workers, produce, report)
}
