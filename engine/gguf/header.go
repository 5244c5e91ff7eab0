package gguf

import (
	"bufio"
	"encoding/binary"
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
	maxNameLen   = 1 << 16 // tensor names
	maxKVs       = 1 << 20
	maxTensors   = 1 << 24
	maxArrayLen  = 1 << 28
	maxNesting   = 8
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
func (t *TensorInfo) Rows() uint64 { return t.Elements() / t.Dims[0] }

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
		if e := t.Offset + t.Size; e > end {
			end = e
		}
	}
	return end
}

// Architecture is general.architecture, or "" if absent.
func (f *File) Architecture() string {
	s, _ := f.Metadata.String("general.architecture")
	return s
}

// FormatError is a malformed-file error with the byte offset where the
// problem was found.
type FormatError struct {
	Offset int64
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("gguf: at offset %d: %s", e.Offset, e.Msg)
}

// parser reads the header from a stream, counting bytes. size is the total
// file size when known (random access), or -1 for a stream; it lets counts
// and lengths be checked against what is left before anything is allocated.
type parser struct {
	r    io.Reader
	pos  int64
	size int64
	buf  [8]byte
	ver  uint32
}

func (p *parser) fail(format string, args ...any) error {
	return &FormatError{p.pos, fmt.Sprintf(format, args...)}
}

func (p *parser) read(n int) ([]byte, error) {
	b := p.buf[:n]
	k, err := io.ReadFull(p.r, b)
	p.pos += int64(k)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, p.fail("file truncated (needed %d more bytes)", n-k)
		}
		return nil, p.fail("read: %v", err)
	}
	return b, nil
}

func (p *parser) u32() (uint32, error) {
	b, err := p.read(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (p *parser) u64() (uint64, error) {
	b, err := p.read(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// count reads a length or count: 32 bits in v1, 64 bits after.
func (p *parser) count() (uint64, error) {
	if p.ver == 1 {
		v, err := p.u32()
		return uint64(v), err
	}
	return p.u64()
}

// remaining is the number of bytes left when the size is known.
func (p *parser) remaining() (int64, bool) {
	if p.size < 0 {
		return 0, false
	}
	return p.size - p.pos, true
}

// checkFits refuses n items of at least minBytes each when the file is too
// short to hold them.
func (p *parser) checkFits(what string, n uint64, minBytes uint64) error {
	if rem, ok := p.remaining(); ok {
		if minBytes > 0 && n > uint64(rem)/minBytes {
			return p.fail("%s count %d cannot fit in the %d bytes left", what, n, rem)
		}
	}
	return nil
}

// readBytes reads n bytes, growing the buffer as data arrives so that a
// huge length on a short stream fails at end of file, not at allocation.
func (p *parser) readBytes(n uint64) ([]byte, error) {
	const chunk = 1 << 20
	if n <= chunk {
		b := make([]byte, n)
		k, err := io.ReadFull(p.r, b)
		p.pos += int64(k)
		if err != nil {
			return nil, p.fail("file truncated inside a %d-byte string", n)
		}
		return b, nil
	}
	out := make([]byte, 0, chunk)
	for uint64(len(out)) < n {
		m := n - uint64(len(out))
		if m > chunk {
			m = chunk
		}
		start := len(out)
		out = append(out, make([]byte, m)...)
		k, err := io.ReadFull(p.r, out[start:])
		p.pos += int64(k)
		if err != nil {
			return nil, p.fail("file truncated inside a %d-byte string", n)
		}
	}
	return out, nil
}

func (p *parser) str(limit uint64, what string) (string, error) {
	n, err := p.count()
	if err != nil {
		return "", err
	}
	if n > limit {
		return "", p.fail("%s length %d exceeds the limit of %d", what, n, limit)
	}
	if rem, ok := p.remaining(); ok && n > uint64(rem) {
		return "", p.fail("%s length %d runs past the end of the file (%d bytes left)", what, n, rem)
	}
	b, err := p.readBytes(n)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// ReadHeader parses the header of a GGUF stream, leaving r positioned at the
// end of the tensor infos (before alignment padding). size is the total
// length when known, or -1.
func ReadHeader(r io.Reader, size int64) (*File, error) {
	p := &parser{r: r, size: size}
	return p.header()
}

func (p *parser) header() (*File, error) {
	b, err := p.read(4)
	if err != nil {
		return nil, err
	}
	if string(b) != Magic {
		return nil, &FormatError{0, fmt.Sprintf("not a GGUF file (magic %q, want %q)", b, Magic)}
	}
	ver, err := p.u32()
	if err != nil {
		return nil, err
	}
	switch {
	case ver == 1:
		return nil, p.fail("GGUF version 1 is not supported (only 2 and 3)")
	case ver == 2 || ver == 3:
	case bits.ReverseBytes32(ver) == 2 || bits.ReverseBytes32(ver) == 3:
		return nil, p.fail("big-endian GGUF files are not supported")
	default:
		return nil, p.fail("unsupported GGUF version %d (only 2 and 3)", ver)
	}
	p.ver = ver
	f := &File{Version: ver, Alignment: DefaultAlignment, byName: map[string]*TensorInfo{}}

	nTensors, err := p.count()
	if err != nil {
		return nil, err
	}
	if nTensors > maxTensors {
		return nil, p.fail("tensor count %d exceeds the limit of %d", nTensors, maxTensors)
	}
	// A tensor info is at least 8 (name len) + 4 (n_dims) + 8 (dim) + 4 (type) + 8 (offset) bytes.
	if err := p.checkFits("tensor", nTensors, 32); err != nil {
		return nil, err
	}
	nKV, err := p.count()
	if err != nil {
		return nil, err
	}
	if nKV > maxKVs {
		return nil, p.fail("metadata count %d exceeds the limit of %d", nKV, maxKVs)
	}
	if err := p.checkFits("metadata", nKV, 12); err != nil {
		return nil, err
	}

	for i := uint64(0); i < nKV; i++ {
		at := p.pos
		key, err := p.str(maxNameLen, "metadata key")
		if err != nil {
			return nil, err
		}
		t, err := p.u32()
		if err != nil {
			return nil, err
		}
		v, err := p.value(ValueType(t), 0)
		if err != nil {
			return nil, fmt.Errorf("%w (metadata key %q)", err, key)
		}
		if err := f.Metadata.add(key, v); err != nil {
			return nil, &FormatError{at, err.Error()}
		}
	}
	if v, ok := f.Metadata.Get("general.alignment"); ok {
		a, ok := asUint(v.V)
		if !ok || a == 0 || a&(a-1) != 0 || a > 1<<20 {
			return nil, &FormatError{p.pos, fmt.Sprintf("general.alignment %v is not a power of two up to 1 MiB", v.V)}
		}
		f.Alignment = a
	}

	f.Tensors = make([]*TensorInfo, 0, min(nTensors, 4096))
	for i := uint64(0); i < nTensors; i++ {
		t, err := p.tensorInfo(f.Alignment)
		if err != nil {
			return nil, err
		}
		if _, dup := f.byName[t.Name]; dup {
			return nil, p.fail("duplicate tensor name %q", t.Name)
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

func alignUp(n, a uint64) uint64 { return (n + a - 1) / a * a }

func (p *parser) tensorInfo(alignment uint64) (*TensorInfo, error) {
	at := p.pos
	name, err := p.str(maxNameLen, "tensor name")
	if err != nil {
		return nil, err
	}
	nd, err := p.u32()
	if err != nil {
		return nil, err
	}
	if nd == 0 || nd > MaxDims {
		return nil, p.fail("tensor %q has %d dimensions (want 1 to %d)", name, nd, MaxDims)
	}
	t := &TensorInfo{Name: name, Dims: make([]uint64, nd)}
	elems := uint64(1)
	for i := range t.Dims {
		d, err := p.u64()
		if err != nil {
			return nil, err
		}
		if d == 0 || d > math.MaxInt64 {
			return nil, p.fail("tensor %q dimension %d is %d", name, i, d)
		}
		hi, lo := bits.Mul64(elems, d)
		if hi != 0 || lo > math.MaxInt64 {
			return nil, p.fail("tensor %q: the product of its dimensions overflows", name)
		}
		elems = lo
		t.Dims[i] = d
	}
	typ, err := p.u32()
	if err != nil {
		return nil, err
	}
	t.Type = TensorType(typ)
	if !t.Type.Known() {
		return nil, p.fail("tensor %q has unknown type id %d", name, typ)
	}
	bs := uint64(t.Type.BlockSize())
	if t.Dims[0]%bs != 0 {
		return nil, p.fail("tensor %q: row length %d is not a multiple of the %s block size %d", name, t.Dims[0], t.Type, bs)
	}
	hi, lo := bits.Mul64(elems/bs, uint64(t.Type.TypeSize()))
	if hi != 0 || lo > math.MaxInt64 {
		return nil, p.fail("tensor %q: byte size overflows", name)
	}
	t.Size = lo
	if t.Offset, err = p.u64(); err != nil {
		return nil, err
	}
	if t.Offset%alignment != 0 {
		return nil, &FormatError{at, fmt.Sprintf("tensor %q offset %d is not aligned to %d", name, t.Offset, alignment)}
	}
	if t.Offset > math.MaxInt64-t.Size {
		return nil, &FormatError{at, fmt.Sprintf("tensor %q offset %d overflows", name, t.Offset)}
	}
	return t, nil
}

// checkLayout refuses tensors that overlap or, when the file size is known,
// run past its end.
func (f *File) checkLayout(size int64) error {
	order := make([]*TensorInfo, len(f.Tensors))
	copy(order, f.Tensors)
	sort.Slice(order, func(i, j int) bool { return order[i].Offset < order[j].Offset })
	for i := 1; i < len(order); i++ {
		a, b := order[i-1], order[i]
		if a.Offset+a.Size > b.Offset {
			return &FormatError{int64(f.DataOffset + b.Offset), fmt.Sprintf("tensors %q and %q overlap", a.Name, b.Name)}
		}
	}
	if size >= 0 && len(order) > 0 {
		last := order[len(order)-1]
		end := f.DataOffset + last.Offset + last.Size
		if f.DataOffset > uint64(math.MaxInt64)-last.Offset-last.Size || end > uint64(size) {
			return &FormatError{int64(f.DataOffset + last.Offset), fmt.Sprintf("tensor %q (%d bytes at data offset %d) runs past the end of the file (%d bytes)", last.Name, last.Size, last.Offset, size)}
		}
	}
	return nil
}

// InFileOrder returns the tensors sorted by offset.
func (f *File) InFileOrder() []*TensorInfo {
	order := make([]*TensorInfo, len(f.Tensors))
	copy(order, f.Tensors)
	sort.Slice(order, func(i, j int) bool { return order[i].Offset < order[j].Offset })
	return order
}

func (p *parser) value(t ValueType, depth int) (Value, error) {
	if sz := t.scalarSize(); sz > 0 {
		b, err := p.read(sz)
		if err != nil {
			return Value{}, err
		}
		return Value{t, decodeScalar(t, b)}, nil
	}
	switch t {
	case TypeString:
		s, err := p.str(maxStringLen, "string")
		return Value{t, s}, err
	case TypeArray:
		a, err := p.array(depth)
		return Value{t, a}, err
	}
	return Value{}, p.fail("unknown metadata value type %d", uint32(t))
}

func decodeScalar(t ValueType, b []byte) any {
	le := binary.LittleEndian
	switch t {
	case TypeUint8:
		return b[0]
	case TypeInt8:
		return int8(b[0])
	case TypeBool:
		return b[0] != 0
	case TypeUint16:
		return le.Uint16(b)
	case TypeInt16:
		return int16(le.Uint16(b))
	case TypeUint32:
		return le.Uint32(b)
	case TypeInt32:
		return int32(le.Uint32(b))
	case TypeFloat32:
		return math.Float32frombits(le.Uint32(b))
	case TypeUint64:
		return le.Uint64(b)
	case TypeInt64:
		return int64(le.Uint64(b))
	case TypeFloat64:
		return math.Float64frombits(le.Uint64(b))
	}
	return nil
}

func (p *parser) array(depth int) (*Array, error) {
	if depth >= maxNesting {
		return nil, p.fail("arrays nested deeper than %d", maxNesting)
	}
	et, err := p.u32()
	if err != nil {
		return nil, err
	}
	elem := ValueType(et)
	n, err := p.count()
	if err != nil {
		return nil, err
	}
	if n > maxArrayLen {
		return nil, p.fail("array length %d exceeds the limit of %d", n, maxArrayLen)
	}
	minBytes := uint64(elem.scalarSize())
	switch elem {
	case TypeString:
		minBytes = 8
	case TypeArray:
		minBytes = 12
	default:
		if minBytes == 0 {
			return nil, p.fail("unknown array element type %d", et)
		}
	}
	if err := p.checkFits("array element", n, minBytes); err != nil {
		return nil, err
	}
	// Capacity grows with what is actually read, so a lying count on a
	// stream of unknown size fails at end of file, not at allocation.
	capHint := int(min(n, 1<<16))
	a := &Array{Elem: elem}
	if sz := elem.scalarSize(); sz > 0 {
		raw := make([]byte, 0, capHint*sz)
		for left := n * uint64(sz); left > 0; {
			m := min(left, 1<<20)
			start := len(raw)
			raw = append(raw, make([]byte, m)...)
			k, err := io.ReadFull(p.r, raw[start:])
			p.pos += int64(k)
			if err != nil {
				return nil, p.fail("file truncated inside an array of %d %s", n, elem)
			}
			left -= m
		}
		a.V = decodeScalars(elem, raw, int(n))
		return a, nil
	}
	if elem == TypeString {
		out := make([]string, 0, capHint)
		for i := uint64(0); i < n; i++ {
			s, err := p.str(maxStringLen, "string")
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		a.V = out
		return a, nil
	}
	out := make([]*Array, 0, min(capHint, 1024))
	for i := uint64(0); i < n; i++ {
		sub, err := p.array(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	a.V = out
	return a, nil
}

func decodeScalars(t ValueType, raw []byte, n int) any {
	le := binary.LittleEndian
	switch t {
	case TypeUint8:
		return raw[:n:n]
	case TypeInt8:
		out := make([]int8, n)
		for i := range out {
			out[i] = int8(raw[i])
		}
		return out
	case TypeBool:
		out := make([]bool, n)
		for i := range out {
			out[i] = raw[i] != 0
		}
		return out
	case TypeUint16:
		out := make([]uint16, n)
		for i := range out {
			out[i] = le.Uint16(raw[2*i:])
		}
		return out
	case TypeInt16:
		out := make([]int16, n)
		for i := range out {
			out[i] = int16(le.Uint16(raw[2*i:]))
		}
		return out
	case TypeUint32:
		out := make([]uint32, n)
		for i := range out {
			out[i] = le.Uint32(raw[4*i:])
		}
		return out
	case TypeInt32:
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(le.Uint32(raw[4*i:]))
		}
		return out
	case TypeFloat32:
		out := make([]float32, n)
		for i := range out {
			out[i] = math.Float32frombits(le.Uint32(raw[4*i:]))
		}
		return out
	case TypeUint64:
		out := make([]uint64, n)
		for i := range out {
			out[i] = le.Uint64(raw[8*i:])
		}
		return out
	case TypeInt64:
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(le.Uint64(raw[8*i:]))
		}
		return out
	case TypeFloat64:
		out := make([]float64, n)
		for i := range out {
			out[i] = math.Float64frombits(le.Uint64(raw[8*i:]))
		}
		return out
	}
	return nil
}

// bufferedParser wraps r for header parsing; the caller must keep using the
// returned reader for the data that follows.
func bufferedParser(r io.Reader, size int64) (*parser, *bufio.Reader) {
	br := bufio.NewReaderSize(r, 1<<16)
	return &parser{r: br, size: size}, br
}
