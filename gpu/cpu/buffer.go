package cpu

import (
	"fmt"
	"unsafe"

	"github.com/emberllm/ember/gpu"
)

// buffer is host memory. Weights keep the caller's bytes (possibly a
// read-only memory mapping), so nothing may ever write to them.
type buffer struct {
	name     string
	typ      gpu.Type
	shape    [4]int
	data     []byte
	readOnly bool
	owner    *Backend
	// interleaved marks a weight stored in one of quant's interleaved
	// layouts (weights_interleaved.go): data is not in GGUF order and only
	// the ops that know the layout may read it.
	interleaved *plainCopy
	// fullRange: an interleaved Q8_0 weight holds a -128 quant, which
	// only some of its multi-column kernels take (quant.ColsQ8_0x4).
	fullRange bool
}

func (b *buffer) Type() gpu.Type { return b.typ }
func (b *buffer) Shape() [4]int  { return b.shape }

func (b *buffer) Write(off int, src []byte) error {
	if b.readOnly {
		return fmt.Errorf("cpu: buffer %s is a read-only weight", b.name)
	}
	if off < 0 || off > len(b.data) || len(src) > len(b.data)-off {
		return fmt.Errorf("cpu: write of %d bytes at %d is outside buffer %s of %d bytes", len(src), off, b.name, len(b.data))
	}
	copy(b.data[off:], src)
	return nil
}

func (b *buffer) Read(off int, dst []byte) error {
	size := gpu.Bytes(b.typ, b.shape)
	if off < 0 || off > size || len(dst) > size-off {
		return fmt.Errorf("cpu: read of %d bytes at %d is outside buffer %s of %d bytes", len(dst), off, b.name, size)
	}
	if b.interleaved != nil {
		b.readInterleaved(off, dst)
		return nil
	}
	copy(dst, b.data[off:])
	return nil
}

// checkShape rejects shapes that cannot describe a tensor of typ, and
// returns its size in bytes.
func checkShape(typ gpu.Type, shape [4]int) (int, error) {
	if typ.BlockSize() == 0 {
		return 0, fmt.Errorf("unknown tensor type %s", typ)
	}
	n := 1
	for i, d := range shape {
		if d <= 0 {
			return 0, fmt.Errorf("shape %v: dimension %d is %d", shape, i, d)
		}
		if n > (1<<46)/d {
			return 0, fmt.Errorf("shape %v is too large", shape)
		}
		n *= d
	}
	if shape[0]%typ.BlockSize() != 0 {
		return 0, fmt.Errorf("shape %v: %d elements per row is not a multiple of %s's block size %d", shape, shape[0], typ, typ.BlockSize())
	}
	return gpu.Bytes(typ, shape), nil
}

// hugePage is the size of a transparent huge page on the CPUs ember runs
// on (x86-64, and arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// alignedBytes returns n zeroed bytes starting on a 64-byte boundary, so
// float and int views of them are aligned and rows start on cache lines.
func alignedBytes(n int) []byte {
	raw := make([]byte, n+64)
	skip := int(-uintptr(unsafe.Pointer(unsafe.SliceData(raw)))) & 63
	return raw[skip : skip+n : skip+n]
}

// weightBytes is alignedBytes for a weight's copy, asked for huge pages
// past a few hundred KiB: products stream every byte of a weight each
// token. Other buffers are not: a KV cache of many slots, each touched
// at its start, would be made resident 2 MiB at a time.
func weightBytes(n int) []byte {
	b := alignedBytes(n)
	if n >= hugePage/8 {
		adviseHugePages(b)
	}
	return b
}
