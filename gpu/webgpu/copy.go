//go:build cgo || js

package webgpu

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

var _ gpu.Copier = (*Backend)(nil)

// CopyBuffer queues a device-side copy between two of this backend's
// buffers in a submission of its own; WebGPU's queue orders it between the
// runs submitted before and after.
func (b *Backend) CopyBuffer(dst gpu.Buffer, dstOff int, src gpu.Buffer, srcOff, n int) error {
	if b.closed {
		return fmt.Errorf("webgpu: copy: the backend is closed")
	}
	d, ok := dst.(*buffer)
	s, ok2 := src.(*buffer)
	if !ok || !ok2 || d.be != b || s.be != b {
		return fmt.Errorf("webgpu: copy: both buffers must belong to this backend")
	}
	if d.readOnly {
		return fmt.Errorf("webgpu: copy: %s is a read-only weight", d.name)
	}
	if n <= 0 || srcOff < 0 || dstOff < 0 || srcOff+n > s.size || dstOff+n > d.size {
		return fmt.Errorf("webgpu: copy of %d bytes from %s at %d (%d bytes) to %s at %d (%d bytes) is out of range",
			n, s.name, srcOff, s.size, d.name, dstOff, d.size)
	}
	if n%4 != 0 || srcOff%4 != 0 || dstOff%4 != 0 {
		return fmt.Errorf("webgpu: copy of %d bytes from %s at %d to %s at %d is not in whole 4-byte words", n, s.name, srcOff, d.name, dstOff)
	}
	enc, err := b.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return err
	}
	defer enc.Release()
	if err := enc.TryCopyBufferToBuffer(s.buf, uint64(srcOff), d.buf, uint64(dstOff), uint64(n)); err != nil {
		return fmt.Errorf("webgpu: copy %s to %s: %w", s.name, d.name, err)
	}
	cmd, err := enc.TryFinish(nil)
	if err != nil {
		return err
	}
	defer cmd.Release()
	b.queue.Submit(cmd)
	d.staged = false
	// The host's copy of dst's ids no longer says what the device holds;
	// ids the device chose are in range, and the kernels guard ids anyway.
	d.deviceIDs = d.shadow != nil
	return nil
}
