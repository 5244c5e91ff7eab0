package gguf

import (
	"encoding/binary"
	"math"
)

// rawFile writes GGUF bytes field by field, independently of Writer, so
// tests can build files the Writer would refuse to produce and check the
// Writer's output against a second encoding.
type rawFile struct {
	b []byte
}

func (r *rawFile) pos() int64                    { return int64(len(r.b)) }
func (r *rawFile) bytes(p ...byte)               { r.b = append(r.b, p...) }
func (r *rawFile) u8(v uint8)                    { r.b = append(r.b, v) }
func (r *rawFile) u16(v uint16)                  { r.b = binary.LittleEndian.AppendUint16(r.b, v) }
func (r *rawFile) u32(v uint32)                  { r.b = binary.LittleEndian.AppendUint32(r.b, v) }
func (r *rawFile) u64(v uint64)                  { r.b = binary.LittleEndian.AppendUint64(r.b, v) }
func (r *rawFile) f32(v float32)                 { r.u32(math.Float32bits(v)) }
func (r *rawFile) f64(v float64)                 { r.u64(math.Float64bits(v)) }
func (r *rawFile) str(s string)                  { r.u64(uint64(len(s))); r.b = append(r.b, s...) }
func (r *rawFile) typ(t ValueType)               { r.u32(uint32(t)) }
func (r *rawFile) magic()                        { r.b = append(r.b, "GGUF"...) }
func (r *rawFile) padTo(a int)                   { r.b = append(r.b, make([]byte, (a-len(r.b)%a)%a)...) }
func (r *rawFile) zeros(n int)                   { r.b = append(r.b, make([]byte, n)...) }
func (r *rawFile) clone() *rawFile               { return &rawFile{append([]byte(nil), r.b...)} }
func (r *rawFile) keyType(k string, t ValueType) { r.str(k); r.typ(t) }

// start writes the magic, version and counts.
func (r *rawFile) start(version uint32, nTensors, nKV uint64) {
	r.magic()
	r.u32(version)
	r.u64(nTensors)
	r.u64(nKV)
}

// tensor writes one tensor info.
func (r *rawFile) tensor(name string, typ TensorType, offset uint64, dims ...uint64) {
	r.str(name)
	r.u32(uint32(len(dims)))
	for _, d := range dims {
		r.u64(d)
	}
	r.u32(uint32(typ))
	r.u64(offset)
}

// value writes a metadata value of the Go types the reader produces.
func (r *rawFile) value(v Value) {
	switch x := v.V.(type) {
	case uint8:
		r.u8(x)
	case int8:
		r.u8(uint8(x))
	case bool:
		if x {
			r.u8(1)
		} else {
			r.u8(0)
		}
	case uint16:
		r.u16(x)
	case int16:
		r.u16(uint16(x))
	case uint32:
		r.u32(x)
	case int32:
		r.u32(uint32(x))
	case float32:
		r.f32(x)
	case uint64:
		r.u64(x)
	case int64:
		r.u64(uint64(x))
	case float64:
		r.f64(x)
	case string:
		r.str(x)
	case *Array:
		r.array(x)
	default:
		panic("rawFile: unsupported value")
	}
}

func (r *rawFile) array(a *Array) {
	r.typ(a.Elem)
	r.u64(uint64(a.Len()))
	each := func(n int, f func(i int) any) {
		for i := 0; i < n; i++ {
			r.value(Value{a.Elem, f(i)})
		}
	}
	switch x := a.V.(type) {
	case []uint8:
		each(len(x), func(i int) any { return x[i] })
	case []int8:
		each(len(x), func(i int) any { return x[i] })
	case []uint16:
		each(len(x), func(i int) any { return x[i] })
	case []int16:
		each(len(x), func(i int) any { return x[i] })
	case []uint32:
		each(len(x), func(i int) any { return x[i] })
	case []int32:
		each(len(x), func(i int) any { return x[i] })
	case []float32:
		each(len(x), func(i int) any { return x[i] })
	case []bool:
		each(len(x), func(i int) any { return x[i] })
	case []string:
		each(len(x), func(i int) any { return x[i] })
	case []uint64:
		each(len(x), func(i int) any { return x[i] })
	case []int64:
		each(len(x), func(i int) any { return x[i] })
	case []float64:
		each(len(x), func(i int) any { return x[i] })
	case []*Array:
		each(len(x), func(i int) any { return x[i] })
	}
}
