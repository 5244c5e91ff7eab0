package cpu

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/emberllm/ember/gpu"
)

// Backend runs graphs on the host's cores through one worker pool.
type Backend struct {
	threads int
	mapped  bool
	pool    *pool
}

var (
	_ gpu.Backend = (*Backend)(nil)
	// The one optional capability (gpu/capabilities.go) of a backend that
	// shares the host's memory: it has no device to copy on, describe or
	// measure.
	_ gpu.WeightCopier = (*Backend)(nil)
)

// Options configure a backend.
type Options struct {
	// Threads is the number of workers (the calling goroutine is one of
	// them); 0 means one per CPU.
	Threads int
	// Mapped keeps weights in the memory Weight is given (a mapping of the
	// model file) instead of copying them into the process's own memory.
	// Mapped weights cost no memory beyond the page cache, but streaming
	// file-backed pages can make decode several times slower
	// (bench/JOURNAL.md).
	Mapped bool
}

// New makes a backend running on threads workers, copying weights into
// its own memory; threads <= 0 means one per CPU.
func New(threads int) *Backend { return NewWith(Options{Threads: threads}) }

// NewWith makes a backend with the given options.
func NewWith(o Options) *Backend {
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	return &Backend{threads: o.Threads, mapped: o.Mapped, pool: newPool(o.Threads)}
}

// CopiesWeights reports whether Weight copies data (the default) rather
// than keeping the caller's memory.
func (b *Backend) CopiesWeights() bool { return !b.mapped }

// Threads is the number of workers.
func (b *Backend) Threads() int { return b.threads }

func (b *Backend) Name() string { return fmt.Sprintf("cpu(%d threads)", b.threads) }

// Weight copies data into the backend's memory, or with Options.Mapped
// keeps it as it is (never writing to it), copying only data that is not
// aligned for its element type. Copied Q4_0 and Q4_K matrices may be
// stored interleaved (weights_interleaved.go).
func (b *Backend) Weight(name string, typ gpu.Type, shape [4]int, data []byte) (gpu.Buffer, error) {
	n, err := checkShape(typ, shape)
	if err != nil {
		return nil, fmt.Errorf("cpu: weight %s: %w", name, err)
	}
	if len(data) != n {
		return nil, fmt.Errorf("cpu: weight %s: %s%v takes %d bytes, got %d", name, typ, shape, n, len(data))
	}
	if interleaves(b, typ, shape) {
		return interleavedWeight(b, name, typ, shape, data), nil
	}
	if align := min(typ.TypeSize(), 4); !b.mapped || typ.BlockSize() == 1 && uintptr(unsafe.Pointer(unsafe.SliceData(data)))%uintptr(align) != 0 {
		c := weightBytes(n)
		copy(c, data)
		data = c
	}
	return &buffer{name: name, typ: typ, shape: shape, data: data, readOnly: true, owner: b}, nil
}

// Alloc makes zeroed host memory.
func (b *Backend) Alloc(name string, typ gpu.Type, shape [4]int) (gpu.Buffer, error) {
	n, err := checkShape(typ, shape)
	if err != nil {
		return nil, fmt.Errorf("cpu: buffer %s: %w", name, err)
	}
	return &buffer{name: name, typ: typ, shape: shape, data: alignedBytes(n), owner: b}, nil
}

// Sync returns at once: Run finishes its work before returning.
func (b *Backend) Sync() error { return nil }

// Close stops the workers; the backend must not be used afterwards.
func (b *Backend) Close() error {
	b.pool.close()
	return nil
}
