package gguf

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
)

// Writer builds a GGUF v3 file. Tensor data is produced by a callback at
// write time, in the order tensors were added, so a multi-gigabyte model can
// be written without holding it in memory. The zero Writer is ready to use.
type Writer struct {
	Metadata Metadata
	// Alignment of tensor data; 0 means general.alignment when set, else
	// DefaultAlignment. A non-default alignment is recorded in the file as
	// general.alignment so that readers honour it.
	Alignment uint64
	tensors   []writerTensor
	names     map[string]bool
}

type writerTensor struct {
	info TensorInfo
	fill func(w io.Writer) error
}

// NewWriter returns an empty writer.
func NewWriter() *Writer { return &Writer{} }

// AddTensor adds a tensor whose bytes fill writes when the file is written;
// fill must write exactly the tensor's size.
func (w *Writer) AddTensor(name string, typ TensorType, dims []uint64, fill func(io.Writer) error) error {
	if w.names == nil {
		w.names = map[string]bool{}
	}
	if w.names[name] {
		return fmt.Errorf("gguf: duplicate tensor %q", name)
	}
	if len(name) > maxNameLen {
		return fmt.Errorf("gguf: tensor name of %d bytes exceeds the limit of %d", len(name), maxNameLen)
	}
	if !typ.Known() {
		return fmt.Errorf("gguf: tensor %q: unknown type %d", name, typ)
	}
	if len(dims) == 0 || len(dims) > MaxDims {
		return fmt.Errorf("gguf: tensor %q: %d dimensions (want 1 to %d)", name, len(dims), MaxDims)
	}
	elems := uint64(1)
	for i, d := range dims {
		hi, lo := bits.Mul64(elems, d)
		if d == 0 || hi != 0 || lo > math.MaxInt64 {
			return fmt.Errorf("gguf: tensor %q: dimension %d is %d, or the element count overflows", name, i, d)
		}
		elems = lo
	}
	if dims[0]%uint64(typ.BlockSize()) != 0 {
		return fmt.Errorf("gguf: tensor %q: row length %d is not a multiple of the %s block size %d", name, dims[0], typ, typ.BlockSize())
	}
	t := TensorInfo{Name: name, Dims: append([]uint64(nil), dims...), Type: typ, Index: len(w.tensors)}
	t.Size = elems / uint64(typ.BlockSize()) * uint64(typ.TypeSize())
	w.names[name] = true
	w.tensors = append(w.tensors, writerTensor{t, fill})
	return nil
}

// AddTensorBytes adds a tensor whose bytes are already in memory.
func (w *Writer) AddTensorBytes(name string, typ TensorType, dims []uint64, data []byte) error {
	return w.AddTensor(name, typ, dims, func(out io.Writer) error {
		_, err := out.Write(data)
		return err
	})
}

// alignment resolves the data alignment and whether general.alignment must
// be added to the metadata written.
func (w *Writer) alignment() (a uint64, addKey bool, err error) {
	if v, ok := w.Metadata.Get("general.alignment"); ok {
		ma, ok := v.V.(uint32)
		if !ok {
			return 0, false, fmt.Errorf("gguf: general.alignment must be a u32, not %s", v.Type)
		}
		if w.Alignment != 0 && w.Alignment != uint64(ma) {
			return 0, false, fmt.Errorf("gguf: Writer.Alignment %d disagrees with general.alignment %d", w.Alignment, ma)
		}
		a = uint64(ma)
	} else {
		a = w.Alignment
		if a == 0 {
			a = DefaultAlignment
		}
		addKey = a != DefaultAlignment
	}
	if a == 0 || a&(a-1) != 0 || a > maxAlignment {
		return 0, false, fmt.Errorf("gguf: alignment %d is not a power of two from 1 to %d", a, maxAlignment)
	}
	return a, addKey, nil
}

// validate checks the metadata before anything is written.
func (w *Writer) validate() error {
	seen := make(map[string]bool, len(w.Metadata.KVs))
	for _, kv := range w.Metadata.KVs {
		if seen[kv.Key] {
			return fmt.Errorf("gguf: duplicate metadata key %q", kv.Key)
		}
		seen[kv.Key] = true
		if len(kv.Key) > maxNameLen {
			return fmt.Errorf("gguf: metadata key of %d bytes exceeds the limit of %d", len(kv.Key), maxNameLen)
		}
		if err := kv.Value.Validate(); err != nil {
			return fmt.Errorf("gguf: metadata key %q: %w", kv.Key, err)
		}
	}
	return nil
}

// Layout assigns each tensor its offset, as WriteTo will, and returns the
// tensor infos in write order.
func (w *Writer) Layout() ([]TensorInfo, error) {
	a, _, err := w.alignment()
	if err != nil {
		return nil, err
	}
	out := make([]TensorInfo, len(w.tensors))
	var off uint64
	for i := range w.tensors {
		t := &w.tensors[i].info
		t.Offset = off
		out[i] = *t
		if t.Size > math.MaxInt64-off-a {
			return nil, fmt.Errorf("gguf: tensor %q: data section exceeds 2^63 bytes", t.Name)
		}
		off = alignUp(off+t.Size, a)
	}
	return out, nil
}

// WriteTo writes the file.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	if err := w.validate(); err != nil {
		return 0, err
	}
	align, addKey, err := w.alignment()
	if err != nil {
		return 0, err
	}
	infos, err := w.Layout()
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	cw := &countWriter{w: bw}
	e := &encoder{w: cw}
	e.raw([]byte(Magic))
	e.u32(3)
	e.u64(uint64(len(infos)))
	nKV := len(w.Metadata.KVs)
	if addKey {
		nKV++
	}
	e.u64(uint64(nKV))
	for _, kv := range w.Metadata.KVs {
		e.str(kv.Key)
		e.u32(uint32(kv.Value.Type))
		e.value(kv.Value)
	}
	if addKey {
		e.str("general.alignment")
		e.u32(uint32(TypeUint32))
		e.u32(uint32(align))
	}
	for _, t := range infos {
		e.str(t.Name)
		e.u32(uint32(len(t.Dims)))
		for _, d := range t.Dims {
			e.u64(d)
		}
		e.u32(uint32(t.Type))
		e.u64(t.Offset)
	}
	e.pad(align)
	if e.err != nil {
		return cw.n, e.err
	}
	for i := range w.tensors {
		t := &w.tensors[i]
		before := cw.n
		if err := t.fill(cw); err != nil {
			return cw.n, fmt.Errorf("gguf: writing tensor %q: %w", t.info.Name, err)
		}
		if got := uint64(cw.n - before); got != t.info.Size {
			return cw.n, fmt.Errorf("gguf: tensor %q: wrote %d bytes, want %d", t.info.Name, got, t.info.Size)
		}
		// Padding after every tensor, the last included, as llama.cpp does.
		e.pad(align)
		if e.err != nil {
			return cw.n, e.err
		}
	}
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	return cw.n, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// encoder writes little-endian fields, keeping the first error so that the
// caller checks once at the end.
type encoder struct {
	w   *countWriter
	err error
	b   [8]byte
}

func (e *encoder) raw(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) u32(v uint32) { binary.LittleEndian.PutUint32(e.b[:4], v); e.raw(e.b[:4]) }
func (e *encoder) u64(v uint64) { binary.LittleEndian.PutUint64(e.b[:], v); e.raw(e.b[:]) }
func (e *encoder) str(s string) { e.u64(uint64(len(s))); e.raw([]byte(s)) }

var zeros [4096]byte

func (e *encoder) pad(a uint64) {
	n := (a - uint64(e.w.n)%a) % a
	for n > 0 && e.err == nil {
		k := min(n, uint64(len(zeros)))
		e.raw(zeros[:k])
		n -= k
	}
}

// value encodes v, which validate has checked.
func (e *encoder) value(v Value) {
	switch v.Type {
	case TypeString:
		e.str(v.V.(string))
	case TypeArray:
		e.array(v.V.(*Array))
	default:
		e.scalar(v.V)
	}
}

func (e *encoder) array(a *Array) {
	e.u32(uint32(a.Elem))
	e.u64(uint64(a.Len()))
	switch x := a.V.(type) {
	case []string:
		for _, s := range x {
			e.str(s)
		}
	case []*Array:
		for _, sub := range x {
			e.array(sub)
		}
	case []uint8:
		e.raw(x)
	case []int8:
		for _, v := range x {
			e.scalar(v)
		}
	case []bool:
		for _, v := range x {
			e.scalar(v)
		}
	case []uint16:
		for _, v := range x {
			e.scalar(v)
		}
	case []int16:
		for _, v := range x {
			e.scalar(v)
		}
	case []uint32:
		for _, v := range x {
			e.u32(v)
		}
	case []int32:
		for _, v := range x {
			e.u32(uint32(v))
		}
	case []float32:
		for _, v := range x {
			e.u32(math.Float32bits(v))
		}
	case []uint64:
		for _, v := range x {
			e.u64(v)
		}
	case []int64:
		for _, v := range x {
			e.u64(uint64(v))
		}
	case []float64:
		for _, v := range x {
			e.u64(math.Float64bits(v))
		}
	}
}

// scalar encodes a fixed-size value in its natural width.
func (e *encoder) scalar(v any) {
	le := binary.LittleEndian
	b := e.b[:]
	switch x := v.(type) {
	case uint8:
		e.raw([]byte{x})
	case int8:
		e.raw([]byte{byte(x)})
	case bool:
		if x {
			e.raw([]byte{1})
		} else {
			e.raw([]byte{0})
		}
	case uint16:
		le.PutUint16(b, x)
		e.raw(b[:2])
	case int16:
		le.PutUint16(b, uint16(x))
		e.raw(b[:2])
	case uint32:
		e.u32(x)
	case int32:
		e.u32(uint32(x))
	case float32:
		e.u32(math.Float32bits(x))
	case uint64:
		e.u64(x)
	case int64:
		e.u64(uint64(x))
	case float64:
		e.u64(math.Float64bits(x))
	default:
		if e.err == nil {
			e.err = fmt.Errorf("gguf: cannot encode %T", v)
		}
	}
}
