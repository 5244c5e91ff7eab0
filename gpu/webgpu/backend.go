//go:build cgo || js

package webgpu

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// Backend is one WebGPU device.
type Backend struct {
	inst      *wgpu.Instance
	adapter   *wgpu.Adapter
	dev       *wgpu.Device
	queue     *wgpu.Queue
	info      wgpu.AdapterInfo
	limits    wgpu.Limits
	f16       bool
	subgroups bool
	// timestamps: the device writes timestamps between passes
	// (kernelTimes, native only).
	timestamps bool
	pipelines  map[string]*pipeline
	sources    map[string]*kernelSource
	// maxBinding is Options.MaxBinding.
	maxBinding uint64
	// off are the fusions turned off (tests only: fusion).
	off fusion
	// gridX, when set, is the workgroups a dispatch takes along x before
	// it spills into y, in place of maxGroups (tests lower it so that
	// small grids spill too, and the kernels' guards for the spill's
	// surplus workgroups get run).
	gridX int
	// pendingUpload is the weight bytes written since the last
	// submission of writes (upload.go); uploadFlush, when set, replaces
	// uploadFlushBytes (tests).
	pendingUpload, uploadFlush int
	// uploadSubmits counts the submissions of writes (tests).
	uploadSubmits int
	// copies are CopyBuffer's copies not yet submitted (copy.go).
	copies []bufferCopy
	closed bool
	// lost is why the browser took the device away, nil while it has
	// not (platform_js.go).
	lost atomic.Pointer[string]
}

var _ gpu.Backend = (*Backend)(nil)

// wantLimits are the defaults, raised where the adapter allows to what
// large models and ember's kernels need.
func wantLimits(al wgpu.Limits) wgpu.Limits {
	lim := wgpu.DefaultLimits()
	lim.MaxStorageBufferBindingSize = al.MaxStorageBufferBindingSize
	lim.MaxBufferSize = al.MaxBufferSize
	// The default is "undefined" (WebGPU's 8), which max would read as
	// the largest number: browsers refuse that, wgpu-native kept 8.
	lim.MaxStorageBuffersPerShaderStage = max(8, min(al.MaxStorageBuffersPerShaderStage, 10))
	lim.MaxComputeWorkgroupStorageSize = al.MaxComputeWorkgroupStorageSize
	lim.MaxComputeInvocationsPerWorkgroup = al.MaxComputeInvocationsPerWorkgroup
	lim.MaxComputeWorkgroupSizeX = al.MaxComputeWorkgroupSizeX
	return lim
}

func (b *Backend) Name() string { return "webgpu(" + b.info.Device + ")" }

// CopiesWeights is true: weights are uploaded to the device.
func (b *Backend) CopiesWeights() bool { return true }

// Software reports whether the adapter renders on the CPU (lavapipe,
// SwiftShader, WARP).
func (b *Backend) Software() bool { return b.info.AdapterType == wgpu.AdapterTypeCPU }

// Describe writes the adapter and the limits that matter to ember.
func (b *Backend) Describe(w io.Writer) {
	fmt.Fprintf(w, "webgpu adapter: %s (%s, %s, driver %s); f16 %v, subgroups %v; max storage binding %d MiB, max buffer %d MiB, workgroup storage %d KiB\n",
		b.info.Device, b.info.AdapterType, b.info.BackendType, b.info.Description, b.f16, b.subgroups,
		b.limits.MaxStorageBufferBindingSize>>20, b.limits.MaxBufferSize>>20, b.limits.MaxComputeWorkgroupStorageSize>>10)
}

// Weight uploads a tensor's bytes in their file layout.
func (b *Backend) Weight(name string, typ gpu.Type, shape [4]int, data []byte) (gpu.Buffer, error) {
	buf, err := b.newBuffer(name, typ, shape)
	if err != nil {
		return nil, err
	}
	if len(data) != buf.size {
		buf.release()
		return nil, fmt.Errorf("webgpu: weight %s: %s%v takes %d bytes, got %d", name, typ, shape, buf.size, len(data))
	}
	// in pieces of at most the upload bound (upload.go), so that one
	// large tensor (an output head of hundreds of MB) stays within it too
	chunk := max(b.uploadLimit()&^3, 4)
	for off := 0; off < len(data); off += chunk {
		end := min(off+chunk, len(data))
		if err := buf.Write(off, data[off:end]); err != nil {
			buf.release()
			return nil, err
		}
		if err := b.uploaded(end - off); err != nil {
			buf.release()
			return nil, fmt.Errorf("webgpu: weight %s: %w", name, err)
		}
	}
	buf.readOnly = true
	return buf, nil
}

// streamChunk is the most bytes WeightFrom holds at a time.
const streamChunk = 4 << 20

// WeightFrom uploads a tensor's bytes, in their file layout, as it reads
// them from r, a piece of at most streamChunk at a time: a tensor larger
// than the host would hold at once (the browser's wasm heap) never is.
func (b *Backend) WeightFrom(name string, typ gpu.Type, shape [4]int, r io.Reader) (gpu.Buffer, error) {
	buf, err := b.newBuffer(name, typ, shape)
	if err != nil {
		return nil, err
	}
	chunk := make([]byte, min(streamChunk, b.uploadLimit(), max(buf.size, 4))&^3)
	for off := 0; off < buf.size; {
		n := min(len(chunk), buf.size-off)
		if _, err := io.ReadFull(r, chunk[:n]); err != nil {
			buf.release()
			return nil, fmt.Errorf("webgpu: weight %s: reading byte %d of %d: %w", name, off, buf.size, err)
		}
		if err := buf.Write(off, chunk[:n]); err != nil {
			buf.release()
			return nil, err
		}
		if err := b.uploaded(n); err != nil {
			buf.release()
			return nil, fmt.Errorf("webgpu: weight %s: %w", name, err)
		}
		off += n
	}
	buf.readOnly = true
	return buf, nil
}

// Alloc makes a zero-filled buffer.
func (b *Backend) Alloc(name string, typ gpu.Type, shape [4]int) (gpu.Buffer, error) {
	return b.newBuffer(name, typ, shape)
}

// Sync waits for all submitted work.
func (b *Backend) Sync() error {
	if b.closed {
		return errors.New("webgpu: the backend is closed")
	}
	if err := b.flushCopies(); err != nil {
		return err
	}
	if b.pendingUpload > 0 {
		return b.submitUploads()
	}
	return b.wait()
}

func (b *Backend) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	for _, p := range b.pipelines {
		p.pipe.Release()
	}
	b.releaseDevice()
	return nil
}

// gridLimit is the workgroups a dispatch takes along x before y.
func (b *Backend) gridLimit() int {
	if b.gridX > 0 {
		return b.gridX
	}
	return maxGroups
}
