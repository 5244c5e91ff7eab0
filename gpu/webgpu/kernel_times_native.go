//go:build cgo && !js

package webgpu

/*
#include <stdint.h>
// wgpu-native's, linked through the binding, which has no Go method for it.
extern void wgpuCommandEncoderWriteTimestamp(void *encoder, void *querySet, uint32_t queryIndex);
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"time"
	"unsafe"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// KernelTime is one dispatch of a program as the device timed it.
type KernelTime struct {
	Name   string // the kernel's file
	Groups int    // its workgroups
	Time   time.Duration
}

// maxTimedKernels is wgpu's cap on the queries of one query set.
const maxTimedKernels = 4095

// kernelTimes runs p once with each kernel in a compute pass of its own
// and a device timestamp between passes, as llama.cpp's
// GGML_VK_PERF_LOGGER times each op: a kernel's time runs from the end of
// the one before to its own end, so it holds its barrier and its latency,
// what it adds to a step's chain of dependent dispatches. Only where the
// device has timestamps inside encoders (native wgpu).
func (b *Backend) kernelTimes(p *program, params gpu.Params) ([]KernelTime, error) {
	if !b.timestamps {
		return nil, fmt.Errorf("webgpu: %s has no timestamp queries inside encoders", b.info.Device)
	}
	n := len(p.kernels)
	if n > maxTimedKernels {
		return nil, fmt.Errorf("webgpu: %s has %d kernels, more than one query set times (%d)", p.name, n, maxTimedKernels)
	}
	qs, err := b.dev.TryCreateQuerySet(&wgpu.QuerySetDescriptor{Label: "kernel times", Type: wgpu.QueryTypeTimestamp, Count: uint32(n + 1)})
	if err != nil {
		return nil, err
	}
	defer qs.Release()
	size := uint64(8 * (n + 1))
	resolved, err := b.dev.TryCreateBuffer(&wgpu.BufferDescriptor{Label: "kernel times", Size: size, Usage: wgpu.BufferUsageQueryResolve | wgpu.BufferUsageCopySrc})
	if err != nil {
		return nil, err
	}
	defer resolved.Release()
	stage, err := b.dev.TryCreateBuffer(&wgpu.BufferDescriptor{Label: "kernel times read", Size: size, Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst})
	if err != nil {
		return nil, err
	}
	defer stage.Release()
	enc, err := p.begin(params)
	if err != nil {
		return nil, err
	}
	defer enc.Release()
	// The binding's handles start with wgpu-native's pointer.
	raw := func(h unsafe.Pointer) unsafe.Pointer { return *(*unsafe.Pointer)(h) }
	stamp := func(i int) {
		C.wgpuCommandEncoderWriteTimestamp(raw(unsafe.Pointer(enc)), raw(unsafe.Pointer(qs)), C.uint32_t(i))
	}
	stamp(0)
	for i, k := range p.kernels {
		pass := enc.BeginComputePass(nil)
		pass.SetPipeline(k.pipe)
		pass.SetBindGroup(0, k.group, nil)
		pass.DispatchWorkgroups(k.grid[0], k.grid[1], k.grid[2])
		if err := pass.TryEnd(); err != nil {
			pass.Release()
			return nil, err
		}
		pass.Release()
		stamp(i + 1)
	}
	if err := enc.TryResolveQuerySet(qs, 0, uint32(n+1), resolved, 0); err != nil {
		return nil, err
	}
	if err := enc.TryCopyBufferToBuffer(resolved, 0, stage, 0, size); err != nil {
		return nil, err
	}
	cmd, err := enc.TryFinish(nil)
	if err != nil {
		return nil, err
	}
	defer cmd.Release()
	b.queue.Submit(cmd)
	if err := b.mapRead(stage, size, nil); err != nil {
		return nil, err
	}
	raws := stage.GetMappedRange(0, uint(size))
	// WebGPU resolves timestamps in nanoseconds.
	ts := make([]uint64, n+1)
	for i := range ts {
		ts[i] = binary.LittleEndian.Uint64(raws[8*i:])
	}
	if err := stage.TryUnmap(); err != nil {
		return nil, err
	}
	out := make([]KernelTime, n)
	for i, k := range p.kernels {
		out[i] = KernelTime{k.name, int(k.grid[0] * k.grid[1] * k.grid[2]), time.Duration(ts[i+1] - ts[i])}
	}
	return out, nil
}
