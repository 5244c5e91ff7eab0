//go:build cgo || js

package webgpu

import (
	"fmt"
	"time"

	"github.com/oliverbestmann/webgpu/wgpu"
)

// CopyBandwidth measures the device's memory bandwidth with buffer-to-buffer
// copies of up to 1 GiB (each copy reads and writes its bytes, and both
// count), the yardstick for how close decode comes to the hardware.
func (b *Backend) CopyBandwidth() (float64, error) {
	size := uint64(1 << 30)
	size = min(size, b.limits.MaxBufferSize/2) &^ 255
	mk := func(usage wgpu.BufferUsage) (*wgpu.Buffer, error) {
		return b.dev.TryCreateBuffer(&wgpu.BufferDescriptor{Label: "bandwidth", Size: size, Usage: usage})
	}
	src, err := mk(wgpu.BufferUsageCopySrc | wgpu.BufferUsageCopyDst)
	if err != nil {
		return 0, fmt.Errorf("webgpu: bandwidth: %w", err)
	}
	defer src.Release()
	dst, err := mk(wgpu.BufferUsageCopyDst)
	if err != nil {
		return 0, fmt.Errorf("webgpu: bandwidth: %w", err)
	}
	defer dst.Release()
	run := func(n int) (time.Duration, error) {
		enc, err := b.dev.TryCreateCommandEncoder(nil)
		if err != nil {
			return 0, err
		}
		defer enc.Release()
		for range n {
			if err := enc.TryCopyBufferToBuffer(src, 0, dst, 0, size); err != nil {
				return 0, err
			}
		}
		cmd, err := enc.TryFinish(nil)
		if err != nil {
			return 0, err
		}
		defer cmd.Release()
		t0 := time.Now()
		b.queue.Submit(cmd)
		err = b.wait()
		return time.Since(t0), err
	}
	if _, err := run(1); err != nil { // first touch and warm-up
		return 0, fmt.Errorf("webgpu: bandwidth: %w", err)
	}
	const n = 8
	d, err := run(n)
	if err != nil {
		return 0, fmt.Errorf("webgpu: bandwidth: %w", err)
	}
	return 2 * float64(size) * n / d.Seconds() / 1e9, nil
}
