//go:build cgo || js

package webgpu

import (
	"fmt"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// buffer is one storage buffer, its device memory the tensor's bytes
// padded (padded).
type buffer struct {
	be       *Backend
	name     string
	typ      gpu.Type
	shape    [4]int
	size     int // the tensor's bytes
	buf      *wgpu.Buffer
	readOnly bool
	// shadow is the host's copy of a small I32 buffer (token and expert
	// ids), so runs can check ids the host wrote without a readback.
	shadow []byte
	// deviceIDs says a device-side copy wrote the buffer after the host
	// last did, so shadow is stale and the id checks skip it.
	deviceIDs bool
	// stage is the mapped-read buffer a run copies a small result into
	// (staged); readStage is the one a small buffer's reads of their own
	// copy into (StartRead), kept across reads: a run's copy into stage
	// submitted after a read started cannot overwrite what it waits for.
	stage, readStage *wgpu.Buffer
	// staged says the last run writing this buffer also copied it into
	// stage in the same submission, so a read only maps stage: a decode
	// step is then one submission, the readback included.
	staged bool
}

// padded is the device size of a tensor of n bytes: WebGPU sizes and copies
// go in 4-byte units, and the matvecs read activations as vec4<f32>, which
// sees a binding's last element only if the binding ends on a whole one.
func padded(n int) uint64 { return uint64(max(n, 1)+15) &^ 15 }

// stageMax is the largest buffer whose staging buffer is kept.
const stageMax = 4 << 20

// shadowMax is the largest I32 buffer kept on the host as well.
const shadowMax = 1 << 20

func (b *Backend) newBuffer(name string, typ gpu.Type, shape [4]int) (*buffer, error) {
	if b.closed {
		return nil, fmt.Errorf("webgpu: buffer %s: the backend is closed", name)
	}
	if err := gpu.CheckBuffer(typ, shape); err != nil {
		return nil, fmt.Errorf("webgpu: buffer %s: %w", name, err)
	}
	n := gpu.Bytes(typ, shape)
	// Weights larger than a binding are bound a range of rows at a time.
	if padded(n) > b.limits.MaxBufferSize {
		return nil, fmt.Errorf("webgpu: buffer %s of %d MiB exceeds this adapter's %d MiB buffer limit",
			name, n>>20, b.limits.MaxBufferSize>>20)
	}
	wb, err := b.dev.TryCreateBuffer(&wgpu.BufferDescriptor{
		Label: name,
		Size:  padded(n),
		Usage: wgpu.BufferUsageStorage | wgpu.BufferUsageCopyDst | wgpu.BufferUsageCopySrc,
	})
	if err != nil {
		return nil, fmt.Errorf("webgpu: buffer %s (%d bytes): %w", name, n, err)
	}
	nb := &buffer{be: b, name: name, typ: typ, shape: shape, size: n, buf: wb}
	if typ == gpu.Type(tI32) && n <= shadowMax {
		nb.shadow = make([]byte, n)
	}
	return nb, nil
}

func (b *buffer) Type() gpu.Type { return b.typ }
func (b *buffer) Shape() [4]int  { return b.shape }
func (b *buffer) release() {
	if b.stage != nil {
		b.stage.Release()
	}
	if b.readStage != nil {
		b.readStage.Release()
	}
	b.buf.Release()
}

// Write copies src to byte offset off. Offsets must be 4-aligned; a length
// that is not is padded with zeros, which is only allowed at the end.
func (b *buffer) Write(off int, src []byte) error {
	if b.readOnly {
		return fmt.Errorf("webgpu: %s is a read-only weight", b.name)
	}
	if off < 0 || off+len(src) > b.size {
		return fmt.Errorf("webgpu: write of %d bytes at %d past the %d bytes of %s", len(src), off, b.size, b.name)
	}
	if off%4 != 0 || (len(src)%4 != 0 && off+len(src) != b.size) {
		return fmt.Errorf("webgpu: write of %d bytes at %d to %s is not 4-byte aligned", len(src), off, b.name)
	}
	if err := b.be.flushCopies(); err != nil {
		return err
	}
	if b.shadow != nil {
		copy(b.shadow[off:], src)
		b.deviceIDs = b.deviceIDs && (off > 0 || len(src) < b.size)
	}
	b.staged = false
	if len(src)%4 != 0 {
		src = append(append([]byte(nil), src...), make([]byte, 4-len(src)%4)...)
	}
	if len(src) == 0 {
		return nil
	}
	return b.be.queue.TryWriteBuffer(b.buf, uint64(off), src)
}

// Read copies bytes from off into dst through a mapped staging buffer,
// waiting for the work submitted before.
func (b *buffer) Read(off int, dst []byte) error {
	if b.staged && len(dst) > 0 && off >= 0 && off+len(dst) <= b.size {
		// The run that wrote it left the whole buffer in stage.
		if err := b.be.flushCopies(); err != nil {
			return err
		}
		hi := (b.size + 3) &^ 3
		if err := b.be.mapRead(b.stage, uint64(hi), nil); err != nil {
			return fmt.Errorf("webgpu: read %s: %w", b.name, err)
		}
		copy(dst, b.stage.GetMappedRange(0, uint(hi))[off:])
		return b.stage.TryUnmap()
	}
	wait, err := b.StartRead(off, len(dst))
	if err != nil {
		return err
	}
	return wait(dst)
}

var _ gpu.ReadStarter = (*buffer)(nil)

// StartRead submits a copy of n bytes from off into a staging buffer, and
// returns the wait that maps it once that submission is done.
func (b *buffer) StartRead(off, n int) (func([]byte) error, error) {
	if off < 0 || n < 0 || off+n > b.size {
		return nil, fmt.Errorf("webgpu: read of %d bytes at %d past the %d bytes of %s", n, off, b.size, b.name)
	}
	if n == 0 {
		return func([]byte) error { return nil }, nil
	}
	lo := off &^ 3
	hi := (off + n + 3) &^ 3
	be := b.be
	if err := be.flushCopies(); err != nil {
		return nil, err
	}
	stage, err := b.staging(&b.readStage, hi-lo)
	if err != nil {
		return nil, fmt.Errorf("webgpu: read %s: %w", b.name, err)
	}
	kept := stage == b.readStage
	fail := func(err error) (func([]byte) error, error) {
		if !kept {
			stage.Release()
		}
		return nil, err
	}
	enc, err := be.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return fail(err)
	}
	defer enc.Release()
	if err := enc.TryCopyBufferToBuffer(b.buf, uint64(lo), stage, 0, uint64(hi-lo)); err != nil {
		return fail(fmt.Errorf("webgpu: read %s: %w", b.name, err))
	}
	cmd, err := enc.TryFinish(nil)
	if err != nil {
		return fail(err)
	}
	defer cmd.Release()
	idx := be.queue.Submit(cmd)
	return func(dst []byte) error {
		if !kept {
			defer stage.Release()
		}
		if len(dst) != n {
			return fmt.Errorf("webgpu: read of %d bytes of %s into %d", n, b.name, len(dst))
		}
		if err := be.mapRead(stage, uint64(hi-lo), &idx); err != nil {
			return fmt.Errorf("webgpu: read %s: %w", b.name, err)
		}
		copy(dst, stage.GetMappedRange(0, uint(hi-lo))[off-lo:])
		return stage.TryUnmap()
	}, nil
}

// staging returns a map-read buffer of at least n bytes: for a small
// buffer the one kept in *keep (made whole-sized on first use), else a new
// one for the caller to release.
func (b *buffer) staging(keep **wgpu.Buffer, n int) (*wgpu.Buffer, error) {
	whole := (b.size + 3) &^ 3
	if *keep != nil {
		return *keep, nil
	}
	desc := &wgpu.BufferDescriptor{Label: b.name + ".readback", Size: uint64(n), Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst}
	if whole > stageMax {
		return b.be.dev.TryCreateBuffer(desc)
	}
	desc.Size = uint64(whole)
	s, err := b.be.dev.TryCreateBuffer(desc)
	if err == nil {
		*keep = s
	}
	return s, err
}
