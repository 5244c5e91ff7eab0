//go:build cgo || js

package webgpu

import (
	"fmt"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// bufferCopy is one queued CopyBuffer.
type bufferCopy struct {
	src, dst       *buffer
	srcOff, dstOff int
	n              int
}

// CopyBuffer queues a device-side copy between two of this backend's
// buffers. It is encoded at the start of the next run's submission, which
// is where the engine wants it (feeding that run's token) and saves a
// submission; a write, a read or a sync submits it first, so the queue
// keeps the order of the calls.
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
	b.copies = append(b.copies, bufferCopy{src: s, dst: d, srcOff: srcOff, dstOff: dstOff, n: n})
	d.staged = false
	// The host's copy of dst's ids no longer says what the device holds;
	// ids the device chose are in range, and the kernels guard ids anyway.
	d.deviceIDs = d.shadow != nil
	return nil
}

// encodeCopies adds the queued copies to enc.
func (b *Backend) encodeCopies(enc *wgpu.CommandEncoder) error {
	for _, c := range b.copies {
		if err := enc.TryCopyBufferToBuffer(c.src.buf, uint64(c.srcOff), c.dst.buf, uint64(c.dstOff), uint64(c.n)); err != nil {
			return fmt.Errorf("webgpu: copy %s to %s: %w", c.src.name, c.dst.name, err)
		}
	}
	b.copies = b.copies[:0]
	return nil
}

// flushCopies submits the queued copies on their own.
func (b *Backend) flushCopies() error {
	if len(b.copies) == 0 {
		return nil
	}
	enc, err := b.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return err
	}
	defer enc.Release()
	if err := b.encodeCopies(enc); err != nil {
		return err
	}
	cmd, err := enc.TryFinish(nil)
	if err != nil {
		return err
	}
	defer cmd.Release()
	b.queue.Submit(cmd)
	return nil
}
