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
	pool    *pool
}

var _ gpu.Backend = (*Backend)(nil)

// New makes a backend running on threads workers (the calling goroutine is
// one of them); threads <= 0 means one per CPU.
func New(threads int) *Backend {
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	return &Backend{threads: threads, pool: newPool(threads)}
}

// Threads is the number of workers.
func (b *Backend) Threads() int { return b.threads }

func (b *Backend) Name() string { return fmt.Sprintf("cpu(%d threads)", b.threads) }

// Weight keeps data as it is (never writing to it); only data that is not
// aligned for its element type is copied.
func (b *Backend) Weight(name string, typ gpu.Type, shape [4]int, data []byte) (gpu.Buffer, error) {
	n, err := checkShape(typ, shape)
	if err != nil {
		return nil, fmt.Errorf("cpu: weight %s: %w", name, err)
	}
	if len(data) != n {
		return nil, fmt.Errorf("cpu: weight %s: %s%v takes %d bytes, got %d", name, typ, shape, n, len(data))
	}
	if align := min(typ.TypeSize(), 4); typ.BlockSize() == 1 && uintptr(unsafe.Pointer(unsafe.SliceData(data)))%uintptr(align) != 0 {
		c := alignedBytes(n)
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
