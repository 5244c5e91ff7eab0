package model

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// weights binds GGUF tensors by name to backend buffers, checking shapes.
// Data is handed to the backend as it sits in the file: a slice of the
// memory mapping when the file is mapped, so nothing is copied on the CPU.
//
// Every tensor of a file must end up used: bound, or accepted for a
// stated reason (accept, skip). Load refuses a file with tensors left
// over, naming them, as llama.cpp's loader refuses one ("wrong number of
// tensors"): a tensor the model does not know would otherwise be left out
// of the arithmetic in silence.
type weights struct {
	r     *gguf.Reader
	b     gpu.Backend
	err   error
	bytes int64 // total bytes bound
	bufs  map[string]gpu.Buffer
	// accepted are tensors used without being bound (see accept).
	accepted map[string]bool
	// skip, when set, names tensors a family leaves out as llama.cpp
	// does (a multi-token-prediction block).
	skip func(name string) bool
	// progress, when set, hears bytes after each weight bound, of total.
	progress func(done, total int64)
	total    int64
}

func newWeights(r *gguf.Reader, b gpu.Backend) *weights {
	return &weights{r: r, b: b, bufs: map[string]gpu.Buffer{}, accepted: map[string]bool{}}
}

// get binds tensor name with the expected dims (ggml order); the first
// error sticks and later calls return nil.
func (w *weights) get(name string, dims ...int) gpu.Buffer {
	buf, ok := w.load(name, dims, nil, true)
	if !ok {
		return nil
	}
	return buf
}

// optional binds name when the file has it, nil otherwise.
func (w *weights) optional(name string, dims ...int) gpu.Buffer {
	buf, _ := w.load(name, dims, nil, false)
	return buf
}

// vector binds name, when the file has it, as an F32 buffer of shape
// (the file's dims, or another shape of as many elements): biases and
// scales, which the ops take in F32. Other float types are widened
// exactly, as ggml widens them when it adds or multiplies.
func (w *weights) vector(name string, shape [4]int, dims ...int) gpu.Buffer {
	buf, _ := w.load(name, dims, &shape, false)
	return buf
}

// accept marks name as used without binding it, when the file has it
// with the expected dims (checked as for get).
func (w *weights) accept(name string, dims ...int) {
	if w.err != nil {
		return
	}
	t, ok := w.r.Tensor(name)
	if !ok {
		return
	}
	if err := checkDims(t, dims); err != nil {
		w.err = err
		return
	}
	w.accepted[name] = true
}

func (w *weights) has(name string) bool { _, ok := w.r.Tensor(name); return ok }

func checkDims(t *gguf.TensorInfo, dims []int) error {
	want := gpu.Shape4(dims...)
	got := fileShape(t)
	if got != want {
		return fmt.Errorf("tensor %s has shape %v, the config implies %v", t.Name, t.Dims, dims)
	}
	return nil
}

func fileShape(t *gguf.TensorInfo) [4]int {
	got := [4]int{1, 1, 1, 1}
	for i, d := range t.Dims {
		got[i] = int(d)
	}
	return got
}

func (w *weights) load(name string, dims []int, f32 *[4]int, required bool) (gpu.Buffer, bool) {
	if w.err != nil {
		return nil, false
	}
	if b, ok := w.bufs[name]; ok {
		return b, true
	}
	t, ok := w.r.Tensor(name)
	if !ok {
		if required {
			w.err = fmt.Errorf("tensor %s is missing from the file", name)
		}
		return nil, false
	}
	if err := checkDims(t, dims); err != nil {
		w.err = err
		return nil, false
	}
	typ, shape := t.Type, fileShape(t)
	if st, ok := w.b.(gpu.WeightStreamer); ok && !w.r.Mapped() && (f32 == nil || typ == gguf.F32 && gpu.Bytes(typ, *f32) == gpu.Bytes(typ, shape)) {
		// Not mapped (the browser): the bytes go from the file to the
		// device a piece at a time, never a whole tensor in memory.
		if f32 != nil {
			shape = *f32
		}
		buf, err := st.WeightFrom(name, typ, shape, w.r.TensorReader(t))
		if err != nil {
			w.err = fmt.Errorf("tensor %s: %w", name, err)
			return nil, false
		}
		return w.keep(name, buf, int64(t.Size)), true
	}
	data, err := w.r.TensorData(t)
	if err != nil {
		w.err = err
		return nil, false
	}
	if f32 != nil {
		if gpu.Bytes(gguf.F32, *f32) != gpu.Bytes(gguf.F32, shape) {
			w.err = fmt.Errorf("tensor %s: %v holds %d elements, not those of %v", name, t.Dims, shape[0]*shape[1]*shape[2]*shape[3], *f32)
			return nil, false
		}
		if typ != gguf.F32 {
			if data, err = widen(typ, data); err != nil {
				w.err = fmt.Errorf("tensor %s: %w", name, err)
				return nil, false
			}
			typ = gguf.F32
		}
		shape = *f32
	}
	buf, err := w.b.Weight(name, typ, shape, data)
	if err != nil {
		w.err = fmt.Errorf("tensor %s: %w", name, err)
		return nil, false
	}
	if c, ok := w.b.(gpu.WeightCopier); ok && c.CopiesWeights() && typ == t.Type {
		w.r.DropData(data)
	}
	return w.keep(name, buf, int64(len(data))), true
}

// keep records buf, n bytes of weights, as tensor name's and reports the
// progress.
func (w *weights) keep(name string, buf gpu.Buffer, n int64) gpu.Buffer {
	w.bufs[name] = buf
	w.bytes += n
	if w.progress != nil {
		w.progress(w.bytes, w.total)
	}
	return buf
}

// widen converts a tensor's values to F32 bytes.
func widen(typ gguf.TensorType, data []byte) ([]byte, error) {
	if !quant.CanDequantize(typ) {
		return nil, fmt.Errorf("type %s cannot be read as F32", typ)
	}
	n := len(data) / typ.TypeSize() * typ.BlockSize()
	f := make([]float32, n)
	if err := quant.Dequantize(typ, data, f); err != nil {
		return nil, err
	}
	out := make([]byte, 4*n)
	for i, v := range f {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(v))
	}
	return out, nil
}

// bound reports whether the model uses tensor name's data.
func (w *weights) bound(name string) bool { _, ok := w.bufs[name]; return ok }

// unused lists the file's tensors neither bound, accepted nor skipped.
func (w *weights) unused() []string {
	var out []string
	for _, t := range w.r.Tensors {
		if w.bound(t.Name) || w.accepted[t.Name] || w.skip != nil && w.skip(t.Name) {
			continue
		}
		out = append(out, t.Name)
	}
	sort.Strings(out)
	return out
}

// unusedError says which tensors a model would leave out.
func unusedError(arch string, names []string) error {
	list := names
	more := ""
	if len(list) > 12 {
		list, more = list[:12], fmt.Sprintf(" and %d more", len(names)-12)
	}
	return fmt.Errorf("the file has %d tensor(s) that ember's %s does not use: %s%s; "+
		"running without them would compute something other than the model, so the file is refused "+
		"(llama.cpp refuses such files too: \"wrong number of tensors\")",
		len(names), arch, strings.Join(list, ", "), more)
}

func blk(l int, name string) string { return fmt.Sprintf("blk.%d.%s.weight", l, name) }

// blkName is block l's tensor base name, to which .weight, .bias, .scale
// and .input_scale are appended.
func blkName(l int, name string) string { return fmt.Sprintf("blk.%d.%s", l, name) }

// lin is a weight matrix with what current llama.cpp files may carry
// beside it: a bias added after the product, and a per-tensor scale
// (`<w>.scale`, llama.cpp PR 20427: NVFP4 checkpoints' second-level
// weight scale) multiplied after it. Either may be nil.
type lin struct {
	w, bias, scale gpu.Buffer
}

// linear binds base.weight {k, n} with its .scale {1} when the file has
// one, and its .bias {n} when withBias (the architectures and tensors
// where llama.cpp's loader takes a bias, as an optional tensor).
//
// Its .input_scale, when present, is accepted and not applied, as
// llama.cpp loads it and never applies it: it is the scale a W4A4 kernel
// quantizes the activations with, and llama.cpp (like ember) multiplies
// by activations in float or 8 bits instead, where it changes nothing.
//
// llama.cpp applies a weight's scale in the graphs of some architectures
// only (de3ff81: q/k/v/output projections everywhere but deepseek2's MLA;
// FFN products of llama and qwen3; experts of qwen3moe); elsewhere it
// loads the scale and leaves it out. ember applies every scale it binds:
// the scale is part of the weight (W = scale·W_stored).
func (w *weights) linear(base string, withBias bool, k, n int) lin {
	l := lin{w: w.get(base+".weight", k, n)}
	l.scale = w.vector(base+".scale", gpu.Shape4(1), 1)
	w.accept(base+".input_scale", 1)
	if withBias {
		l.bias = w.vector(base+".bias", gpu.Shape4(n), n)
	}
	return l
}
