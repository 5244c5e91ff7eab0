package model

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// weights binds GGUF tensors by name to backend buffers, checking shapes.
// Data is handed to the backend as it sits in the file: a slice of the
// memory mapping when the file is mapped, so nothing is copied on the CPU.
type weights struct {
	r     *gguf.Reader
	b     gpu.Backend
	err   error
	bytes int64 // total bytes bound
	bufs  map[string]gpu.Buffer
	// progress, when set, hears bytes after each weight bound, of total.
	progress func(done, total int64)
	total    int64
}

func newWeights(r *gguf.Reader, b gpu.Backend) *weights {
	return &weights{r: r, b: b, bufs: map[string]gpu.Buffer{}}
}

// get binds tensor name with the expected dims (ggml order); the first
// error sticks and later calls return nil.
func (w *weights) get(name string, dims ...int) gpu.Buffer {
	buf, ok := w.load(name, dims, true)
	if !ok {
		return nil
	}
	return buf
}

// optional binds name when the file has it, nil otherwise.
func (w *weights) optional(name string, dims ...int) gpu.Buffer {
	buf, _ := w.load(name, dims, false)
	return buf
}

func (w *weights) has(name string) bool { _, ok := w.r.Tensor(name); return ok }

func (w *weights) load(name string, dims []int, required bool) (gpu.Buffer, bool) {
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
	want := gpu.Shape4(dims...)
	var got [4]int
	for i := range got {
		got[i] = 1
	}
	for i, d := range t.Dims {
		got[i] = int(d)
	}
	if got != want {
		w.err = fmt.Errorf("tensor %s has shape %v, the config implies %v", name, t.Dims, dims)
		return nil, false
	}
	data, err := w.r.TensorData(t)
	if err != nil {
		w.err = err
		return nil, false
	}
	buf, err := w.b.Weight(name, t.Type, got, data)
	if err != nil {
		w.err = fmt.Errorf("tensor %s: %w", name, err)
		return nil, false
	}
	if c, ok := w.b.(gpu.WeightCopier); ok && c.CopiesWeights() {
		w.r.DropData(data)
	}
	w.bufs[name] = buf
	w.bytes += int64(len(data))
	if w.progress != nil {
		w.progress(w.bytes, w.total)
	}
	return buf, true
}

func blk(l int, name string) string { return fmt.Sprintf("blk.%d.%s.weight", l, name) }
