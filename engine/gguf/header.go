package gguf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sort"
)

// Magic is the first four bytes of every GGUF file.
const Magic = "GGUF"

// DefaultAlignment applies when general.alignment is absent.
const DefaultAlignment = 32

// MaxDims is ggml's limit on tensor rank.
const MaxDims = 4

// Limits on header fields. They exist so that a hostile count or length
// fails fast instead of driving an allocation; real files are far below.
const (
	maxStringLen = 1 << 28 // 256 MiB: chat templates and tokens are tiny
	maxNameLen   = 1 << 16 // keys and tensor names
	maxKVs       = 1 << 20
	maxTensors   = 1 << 24
	maxArrayLen  = 1 << 28
	maxNesting   = 8       // arrays of arrays; llama.cpp itself allows none
	maxAlignment = 1 << 20 // general.alignment
)

// TensorInfo describes one tensor. Dims[0] is the fastest-varying (row
// length), as in ggml's ne[].
type TensorInfo struct {
	Name   string
	Dims   []uint64
	Type   TensorType
	Offset uint64 // relative to File.DataOffset
	Size   uint64 // bytes
	Index  int    // position in the file's tensor table
}

// Elements is the product of the dimensions.
func (t *TensorInfo) Elements() uint64 {
	n := uint64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// Rows is the number of rows: elements / Dims[0].
func (t *TensorInfo) Rows() uint64 {
	if len(t.Dims) == 0 || t.Dims[0] == 0 {
		return 0
	}
	return t.Elements() / t.Dims[0]
}

// File is a parsed GGUF header: metadata and tensor infos, with the absolute
// offset where tensor data begins.
type File struct {
	Version    uint32
	Metadata   Metadata
	Tensors    []*TensorInfo
	Alignment  uint64
	DataOffset uint64 // absolute offset of the data section
	HeaderSize uint64 // bytes of header before padding
	byName     map[string]*TensorInfo
}

// Tensor returns the tensor info of name.
func (f *File) Tensor(name string) (*TensorInfo, bool) {
	t, ok := f.byName[name]
	return t, ok
}

// DataSize is the number of bytes the data section must hold: the end of
// the last tensor.
func (f *File) DataSize() uint64 {
	var end uint64
	for _, t := range f.Tensors {
		end = max(end, t.Offset+t.Size)
	}
	return end
}

// Architecture is general.architecture, or "" if absent.
func (f *File) Architecture() string {
	s, _ := f.Metadata.String("general.architecture")
	return s
}

// InFileOrder returns the tensors sorted by offset.
func (f *File) InFileOrder() []*TensorInfo {
	order := make([]*TensorInfo, len(f.Tensors))
	copy(order, f.Tensors)
	sort.SliceStable(order, func(i, j int) bool { return order[i].Offset < order[j].Offset })
	return order
}

// ReadHeader parses the header of a GGUF stream, leaving r positioned at the
// end of the tensor infos (before alignment padding). size is the total
// length when known, or -1.
func ReadHeader(r io.Reader, size int64) (*File, error) {
	p := &parser{r: r, size: size}
	return p.header()
}

func (p *parser) header() (*File, error) {
	b, err := p.read(4, "the magic")
	if err != nil {
		return nil, err
	}
	if string(b) != Magic {
		return nil, p.failAt(0, "not a GGUF file (magic %q, want %q)", b, Magic)
	}
	ver, err := p.u32("the version")
	if err != nil {
		return nil, err
	}
	switch {
	case ver == 2 || ver == 3:
	case ver == 1:
		return nil, p.failAt(4, "GGUF version 1 is not supported (only 2 and 3)")
	case bits.ReverseBytes32(ver) == 2 || bits.ReverseBytes32(ver) == 3:
		return nil, p.failAt(4, "big-endian GGUF files are not supported")
	default:
		return nil, p.failAt(4, "unsupported GGUF version %d (only 2 and 3)", ver)
	}
	f := &File{Version: ver, Alignment: DefaultAlignment, byName: map[string]*TensorInfo{}}

	at := p.pos
	nTensors, err := p.u64("the tensor count")
	if err != nil {
		return nil, err
	}
	if nTensors > maxTensors {
		return nil, p.failAt(at, "tensor count %d exceeds the limit of %d", nTensors, maxTensors)
	}
	at = p.pos
	nKV, err := p.u64("the metadata count")
	if err != nil {
		return nil, err
	}
	if nKV > maxKVs {
		return nil, p.failAt(at, "metadata count %d exceeds the limit of %d", nKV, maxKVs)
	}
	// A key/value takes at least 8 (key length) + 4 (type) + 1 bytes, a
	// tensor info 8 (name length) + 4 (rank) + 8 (a dim) + 4 (type) + 8
	// (offset); both tables must fit in what is left.
	if err := p.checkFits("metadata", nKV, 13); err != nil {
		return nil, err
	}
	if err := p.checkFits("tensor", nTensors, 32); err != nil {
		return nil, err
	}

	alignAt := int64(-1)
	for i := uint64(0); i < nKV; i++ {
		at := p.pos
		key, err := p.str(maxNameLen, "metadata key")
		if err != nil {
			return nil, err
		}
		t, err := p.u32("a value type")
		if err != nil {
			return nil, withKey(err, key)
		}
		v, err := p.value(ValueType(t), 0)
		if err != nil {
			return nil, withKey(err, key)
		}
		if err := f.Metadata.add(key, v); err != nil {
			return nil, p.failAt(at, "%v", err)
		}
		if key == "general.alignment" {
			alignAt = at
		}
	}
	if alignAt >= 0 {
		v, _ := f.Metadata.Get("general.alignment")
		a, ok := asUint(v.V)
		if !ok || v.Type == TypeBool || a == 0 || a&(a-1) != 0 || a > maxAlignment {
			return nil, p.failAt(alignAt, "general.alignment (%s %v) is not a power of two from 1 to %d", v.Type, shortValue(v), maxAlignment)
		}
		f.Alignment = a
	}

	f.Tensors = make([]*TensorInfo, 0, min(nTensors, 1024))
	for i := uint64(0); i < nTensors; i++ {
		at := p.pos
		t, err := p.tensorInfo(f.Alignment)
		if err != nil {
			return nil, err
		}
		if _, dup := f.byName[t.Name]; dup {
			return nil, p.failAt(at, "duplicate tensor name %q", t.Name)
		}
		t.Index = len(f.Tensors)
		f.byName[t.Name] = t
		f.Tensors = append(f.Tensors, t)
	}
	f.HeaderSize = uint64(p.pos)
	f.DataOffset = alignUp(uint64(p.pos), f.Alignment)
	if err := f.checkLayout(p.size); err != nil {
		return nil, err
	}
	return f, nil
}

// withKey adds the metadata key to an error found inside its value.
func withKey(err error, key string) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return &FormatError{fe.Offset, fmt.Sprintf("%s (metadata key %q)", fe.Msg, key)}
	}
	return err
}

// shortValue keeps error messages short when a value is a long string.
func shortValue(v Value) any {
	if s, ok := v.V.(string); ok && len(s) > 40 {
		return fmt.Sprintf("%q...", s[:40])
	}
	if a, ok := v.V.(*Array); ok {
		return fmt.Sprintf("[%s x %d]", a.Elem, a.Len())
	}
	return v.V
}

func alignUp(n, a uint64) uint64 { return (n + a - 1) / a * a }

func (p *parser) tensorInfo(alignment uint64) (*TensorInfo, error) {
	at := p.pos
	name, err := p.str(maxNameLen, "tensor name")
	if err != nil {
		return nil, err
	}
	nd, err := p.u32(fmt.Sprintf("the rank of tensor %q", name))
	if err != nil {
		return nil, err
	}
	if nd == 0 || nd > MaxDims {
		return nil, p.failAt(p.pos-4, "tensor %q has %d dimensions (want 1 to %d)", name, nd, MaxDims)
	}
	t := &TensorInfo{Name: name, Dims: make([]uint64, nd)}
	elems := uint64(1)
	for i := range t.Dims {
		d, err := p.u64(fmt.Sprintf("the shape of tensor %q", name))
		if err != nil {
			return nil, err
		}
		if d == 0 || d > math.MaxInt64 {
			return nil, p.failAt(p.pos-8, "tensor %q dimension %d is %d (want 1 to 2^63-1)", name, i, d)
		}
		hi, lo := bits.Mul64(elems, d)
		if hi != 0 || lo > math.MaxInt64 {
			return nil, p.failAt(p.pos-8, "tensor %q: the product of its dimensions overflows", name)
		}
		elems = lo
		t.Dims[i] = d
	}
	typ, err := p.u32(fmt.Sprintf("the type of tensor %q", name))
	if err != nil {
		return nil, err
	}
	t.Type = TensorType(typ)
	if !t.Type.Known() {
		return nil, p.failAt(p.pos-4, "tensor %q has unknown type id %d", name, typ)
	}
	bs := uint64(t.Type.BlockSize())
	if t.Dims[0]%bs != 0 {
		return nil, p.failAt(p.pos-4, "tensor %q: row length %d is not a multiple of the %s block size %d", name, t.Dims[0], t.Type, bs)
	}
	// Dims[0] is a multiple of bs, so elems is too.
	hi, lo := bits.Mul64(elems/bs, uint64(t.Type.TypeSize()))
	if hi != 0 || lo > math.MaxInt64 {
		return nil, p.failAt(p.pos-4, "tensor %q: byte size overflows", name)
	}
	t.Size = lo
	if t.Offset, err = p.u64(fmt.Sprintf("the offset of tensor %q", name)); err != nil {
		return nil, err
	}
	if t.Offset%alignment != 0 {
		return nil, p.failAt(at, "tensor %q offset %d is not aligned to %d", name, t.Offset, alignment)
	}
	if t.Offset > math.MaxInt64-t.Size {
		return nil, p.failAt(at, "tensor %q offset %d plus its size %d overflows", name, t.Offset, t.Size)
	}
	return t, nil
}

// checkLayout refuses tensors that overlap or, when the file size is known,
// run past its end.
func (f *File) checkLayout(size int64) error {
	order := f.InFileOrder()
	for i := 1; i < len(order); i++ {
		a, b := order[i-1], order[i]
		if a.Offset+a.Size > b.Offset {
			return &FormatError{int64(f.DataOffset + min(b.Offset, math.MaxInt64-f.DataOffset)),
				fmt.Sprintf("tensors %q (data offset %d, %d bytes) and %q (data offset %d) overlap", a.Name, a.Offset, a.Size, b.Name, b.Offset)}
		}
	}
	if len(order) == 0 {
		return nil
	}
	last := order[len(order)-1]
	end := last.Offset + last.Size // at most MaxInt64, checked per tensor
	if f.DataOffset > math.MaxInt64-end {
		return &FormatError{int64(f.DataOffset), fmt.Sprintf("tensor %q (%d bytes at data offset %d) ends beyond 2^63", last.Name, last.Size, last.Offset)}
	}
	if size >= 0 && f.DataOffset+end > uint64(size) {
		return &FormatError{int64(f.DataOffset + last.Offset), fmt.Sprintf("tensor %q (%d bytes at data offset %d) runs past the end of the file (%d bytes)", last.Name, last.Size, last.Offset, size)}
	}
	return nil
}
