package gguf

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// Writer builds a GGUF v3 file. Tensor data is produced by a callback at
// write time, in the order tensors were added, so a multi-gigabyte model can
// be written without holding it in memory.
type Writer struct {
	Metadata  Metadata
	Alignment uint64
	tensors   []writerTensor
	names     map[string]bool
}

type writerTensor struct {
	info TensorInfo
	fill func(w io.Writer) error
}

// NewWriter returns an empty writer with the default alignment.
func NewWriter() *Writer {
	return &Writer{Alignment: DefaultAlignment, names: map[string]bool{}}
}

// AddTensor adds a tensor whose bytes fill writes when the file is written;
// fill must write exactly the tensor's size.
func (w *Writer) AddTensor(name string, typ TensorType, dims []uint64, fill func(io.Writer) error) error {
	if w.names[name] {
		return fmt.Errorf("gguf: duplicate tensor %q", name)
	}
	if !typ.Known() {
		return fmt.Errorf("gguf: tensor %q: unknown type %d", name, typ)
	}
	if len(dims) == 0 || len(dims) > MaxDims {
		return fmt.Errorf("gguf: tensor %q: %d dimensions", name, len(dims))
	}
	if dims[0]%uint64(typ.BlockSize()) != 0 {
		return fmt.Errorf("gguf: tensor %q: row length %d is not a multiple of the %s block size %d", name, dims[0], typ, typ.BlockSize())
	}
	t := TensorInfo{Name: name, Dims: append([]uint64(nil), dims...), Type: typ}
	t.Size = t.Elements() / uint64(typ.BlockSize()) * uint64(typ.TypeSize())
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

// WriteTo writes the file.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	if a, ok := w.Metadata.Uint("general.alignment"); ok {
		w.Alignment = a
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	cw := &countWriter{w: bw}
	e := &encoder{w: cw}
	e.raw([]byte(Magic))
	e.u32(3)
	e.u64(uint64(len(w.tensors)))
	e.u64(uint64(len(w.Metadata.KVs)))
	for _, kv := range w.Metadata.KVs {
		e.str(kv.Key)
		e.u32(uint32(kv.Value.Type))
		e.value(kv.Value)
	}
	var off uint64
	for i := range w.tensors {
		t := &w.tensors[i].info
		t.Offset = off
		e.str(t.Name)
		e.u32(uint32(len(t.Dims)))
		for _, d := range t.Dims {
			e.u64(d)
		}
		e.u32(uint32(t.Type))
		e.u64(t.Offset)
		off = alignUp(off+t.Size, w.Alignment)
	}
	if e.err != nil {
		return cw.n, e.err
	}
	e.pad(w.Alignment)
	for i := range w.tensors {
		t := &w.tensors[i]
		before := cw.n
		if err := t.fill(cw); err != nil {
			return cw.n, fmt.Errorf("gguf: writing tensor %q: %w", t.info.Name, err)
		}
		if got := uint64(cw.n - before); got != t.info.Size {
			return cw.n, fmt.Errorf("gguf: tensor %q: wrote %d bytes, want %d", t.info.Name, got, t.info.Size)
		}
		if i < len(w.tensors)-1 {
			e.pad(w.Alignment)
		}
	}
	if e.err != nil {
		return cw.n, e.err
	}
	return cw.n, bw.Flush()
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

func (e *encoder) pad(a uint64) {
	if r := uint64(e.w.n) % a; r != 0 {
		e.raw(make([]byte, a-r))
	}
}

func (e *encoder) value(v Value) {
	switch v.Type {
	case TypeString:
		s, _ := v.V.(string)
		e.str(s)
	case TypeArray:
		a, _ := v.V.(*Array)
		if a == nil {
			e.err = fmt.Errorf("gguf: array value is nil")
			return
		}
		e.array(a)
	default:
		e.scalar(v.Type, v.V)
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
			e.raw([]byte{byte(v)})
		}
	case []bool:
		for _, v := range x {
			e.scalar(TypeBool, v)
		}
	case []uint16:
		for _, v := range x {
			e.scalar(TypeUint16, v)
		}
	case []int16:
		for _, v := range x {
			e.scalar(TypeInt16, v)
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
	default:
		e.err = fmt.Errorf("gguf: unsupported array of %T", a.V)
	}
}

func (e *encoder) scalar(t ValueType, v any) {
	le := binary.LittleEndian
	var b [8]byte
	switch x := v.(type) {
	case uint8:
		b[0] = x
	case int8:
		b[0] = byte(x)
	case bool:
		if x {
			b[0] = 1
		}
	case uint16:
		le.PutUint16(b[:], x)
	case int16:
		le.PutUint16(b[:], uint16(x))
	case uint32:
		le.PutUint32(b[:], x)
	case int32:
		le.PutUint32(b[:], uint32(x))
	case float32:
		le.PutUint32(b[:], math.Float32bits(x))
	case uint64:
		le.PutUint64(b[:], x)
	case int64:
		le.PutUint64(b[:], uint64(x))
	case float64:
		le.PutUint64(b[:], math.Float64bits(x))
	default:
		e.err = fmt.Errorf("gguf: value %T does not match type %s", v, t)
		return
	}
	if t.scalarSize() == 0 {
		e.err = fmt.Errorf("gguf: type %s is not a scalar", t)
		return
	}
	e.raw(b[:t.scalarSize()])
}
