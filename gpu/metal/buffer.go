package metal

import (
	"fmt"
	"os"

	"github.com/emberllm/ember/gpu"
)

// buffer is a host-made buffer: a weight, wrapped where it lies (the
// mapped model file) in one or more segments, or a zero-filled allocation
// (caches, inputs, outputs) in one.
type buffer struct {
	be       *Backend
	name     string
	typ      gpu.Type
	shape    [4]int
	size     int
	readOnly bool
	// data is a weight's bytes as given: the memory its segments wrap,
	// kept referenced while they live, and what reads of it return.
	data []byte
	segs []segment
}

// segment is bytes lo..hi of a buffer's tensor, at byte at of mem.
type segment struct {
	mem    memory
	at     int
	lo, hi int
}

var pageSize = os.Getpagesize()

// newWeight wraps a weight's bytes, splitting it into segments of whole
// units (rows, or matrices of a stack of three dimensions, so that an
// expert or a matrix of a batch is never split) where it exceeds the
// device's largest buffer.
func (b *Backend) newWeight(name string, typ gpu.Type, shape [4]int, data []byte) (*buffer, error) {
	buf, err := b.checkShape(name, typ, shape)
	if err != nil {
		return nil, err
	}
	if len(data) != buf.size {
		return nil, fmt.Errorf("metal: weight %s: %s%v takes %d bytes, got %d", name, typ, shape, buf.size, len(data))
	}
	buf.readOnly, buf.data = true, data
	unit := typ.RowBytes(shape[0])
	if shape[2] > 1 {
		unit *= shape[1]
	}
	limit := b.bufferLimit() - 2*pageSize // a range's pages reach past it on both sides
	per := limit / unit
	if per < 1 {
		return nil, fmt.Errorf("metal: weight %s: a unit of %d bytes does not fit the device's buffers of %d bytes", name, unit, b.bufferLimit())
	}
	for lo := 0; lo < buf.size; lo += per * unit {
		hi := min(buf.size, lo+per*unit)
		m, at, err := b.dev.wrap(data[lo:hi])
		if err != nil {
			buf.release()
			return nil, fmt.Errorf("metal: weight %s: %w", name, err)
		}
		buf.segs = append(buf.segs, segment{mem: m, at: at, lo: lo, hi: hi})
	}
	return buf, nil
}

// newAlloc makes a zero-filled buffer.
func (b *Backend) newAlloc(name string, typ gpu.Type, shape [4]int) (*buffer, error) {
	buf, err := b.checkShape(name, typ, shape)
	if err != nil {
		return nil, err
	}
	if buf.size > b.dev.maxBuffer() {
		return nil, fmt.Errorf("metal: buffer %s of %d MiB exceeds the device's %d MiB buffers", name, buf.size>>20, b.dev.maxBuffer()>>20)
	}
	m, err := b.dev.alloc(max(buf.size, 4))
	if err != nil {
		return nil, fmt.Errorf("metal: buffer %s (%d bytes): %w", name, buf.size, err)
	}
	buf.segs = []segment{{mem: m, lo: 0, hi: buf.size}}
	return buf, nil
}

func (b *Backend) checkShape(name string, typ gpu.Type, shape [4]int) (*buffer, error) {
	if b.closed {
		return nil, fmt.Errorf("metal: buffer %s: the backend is closed", name)
	}
	if err := gpu.CheckBuffer(typ, shape); err != nil {
		return nil, fmt.Errorf("metal: buffer %s: %w", name, err)
	}
	return &buffer{be: b, name: name, typ: typ, shape: shape, size: gpu.Bytes(typ, shape)}, nil
}

func (b *buffer) Type() gpu.Type { return b.typ }
func (b *buffer) Shape() [4]int  { return b.shape }

func (b *buffer) release() {
	for _, s := range b.segs {
		s.mem.release()
	}
	b.segs = nil
}

// Write copies src to byte offset off, once the device is done with what
// was submitted before (it may be reading the buffer).
func (b *buffer) Write(off int, src []byte) error {
	if b.readOnly {
		return fmt.Errorf("metal: %s is a read-only weight", b.name)
	}
	if off < 0 || off+len(src) > b.size {
		return fmt.Errorf("metal: write of %d bytes at %d past the %d bytes of %s", len(src), off, b.size, b.name)
	}
	if err := b.be.Sync(); err != nil {
		return err
	}
	copy(b.segs[0].mem.host(off), src)
	return nil
}

// Read copies bytes from off into dst once the work submitted before is
// done.
func (b *buffer) Read(off int, dst []byte) error {
	if off < 0 || off+len(dst) > b.size {
		return fmt.Errorf("metal: read of %d bytes at %d past the %d bytes of %s", len(dst), off, b.size, b.name)
	}
	if b.data != nil {
		copy(dst, b.data[off:])
		return nil
	}
	if err := b.be.Sync(); err != nil {
		return err
	}
	copy(dst, b.segs[0].mem.host(off))
	return nil
}
