package metal

import (
	"errors"
	"fmt"
	"io"

	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/msl"
)

// Options configure the backend.
type Options struct {
	// MaxBuffer, when set, caps the bytes of the buffers weights are
	// wrapped in below the device's largest buffer, so tests split small
	// weights into segments as weights past the device's limit are split.
	MaxBuffer int
	// NoSIMD builds the kernels without SIMD-group functions (reductions
	// and matrices) even where the device has them, as on devices without
	// (tests of that path).
	NoSIMD bool
}

// Backend runs graphs on one Metal device.
type Backend struct {
	dev    device
	opts   Options
	pipes  map[string]*kernelPipe
	closed bool
}

// kernelPipe is a compiled kernel and how to dispatch it.
type kernelPipe struct {
	pipe pipeline
	k    *msl.Kernel
}

var (
	_ gpu.Backend      = (*Backend)(nil)
	_ gpu.WeightCopier = (*Backend)(nil)
	_ gpu.Describer    = (*Backend)(nil)
)

func newBackend(dev device, o Options) *Backend {
	return &Backend{dev: dev, opts: o, pipes: map[string]*kernelPipe{}}
}

func (b *Backend) Name() string { return "metal(" + b.dev.name() + ")" }

// CopiesWeights is false: weights stay in the pages they were given (the
// mapped model file), which the device reads in place.
func (b *Backend) CopiesWeights() bool { return false }

// Describe writes the device, its family and the limits that matter.
func (b *Backend) Describe(w io.Writer) {
	f := b.features()
	fmt.Fprintf(w, "metal device: %s (%s); SIMD-group reductions %v, matrices %v; max buffer %d MiB\n",
		b.dev.name(), b.dev.family(), f.SIMD, f.Matrix, b.bufferLimit()>>20)
}

// features are the device features the kernels are built with.
func (b *Backend) features() msl.Features {
	if b.opts.NoSIMD {
		return msl.Features{}
	}
	return b.dev.features()
}

// bufferLimit is the largest buffer a weight is wrapped in: the device's,
// or the smaller one a test asked for.
func (b *Backend) bufferLimit() int {
	if b.opts.MaxBuffer > 0 && b.opts.MaxBuffer < b.dev.maxBuffer() {
		return b.opts.MaxBuffer
	}
	return b.dev.maxBuffer()
}

// Weight wraps a tensor's bytes in their file layout without copying them.
func (b *Backend) Weight(name string, typ gpu.Type, shape [4]int, data []byte) (gpu.Buffer, error) {
	return b.newWeight(name, typ, shape, data)
}

// Alloc makes a zero-filled buffer.
func (b *Backend) Alloc(name string, typ gpu.Type, shape [4]int) (gpu.Buffer, error) {
	return b.newAlloc(name, typ, shape)
}

// Sync waits for all submitted work.
func (b *Backend) Sync() error {
	if b.closed {
		return errors.New("metal: the backend is closed")
	}
	return b.dev.wait()
}

func (b *Backend) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	b.dev.wait()
	for _, p := range b.pipes {
		p.pipe.release()
	}
	b.dev.close()
	return nil
}

// kernel returns kernel name built for decode ("" for none), compiling it
// on first use.
func (b *Backend) kernel(name, decode string) (*kernelPipe, error) {
	key := name + "/" + decode
	if p := b.pipes[key]; p != nil {
		return p, nil
	}
	src, k, err := kernelSource(name, decode, b.features())
	if err != nil {
		return nil, err
	}
	pipe, err := b.dev.pipeline(src, k)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", key, err)
	}
	p := &kernelPipe{pipe: pipe, k: k}
	b.pipes[key] = p
	return p, nil
}

// kernelSource is kernel name's full source for decode and the device
// features f: the prelude, its parameter struct (kernelParams) and the
// assembled MSL.
func kernelSource(name, decode string, f msl.Features) (string, *msl.Kernel, error) {
	prm, ok := kernelParams[name]
	if !ok {
		return "", nil, fmt.Errorf("kernel %s has no parameter struct in kernelParams", name)
	}
	decl, err := paramDecl(prm)
	if err != nil {
		return "", nil, fmt.Errorf("kernel %s: %w", name, err)
	}
	k, err := msl.Load(name, decode, f)
	if err != nil {
		return "", nil, err
	}
	return prelude + decl + k.Source, k, nil
}
