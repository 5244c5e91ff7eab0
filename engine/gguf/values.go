package gguf

import (
	"encoding/binary"
	"math"
)

// value reads one metadata value of type t; depth counts enclosing arrays.
func (p *parser) value(t ValueType, depth int) (Value, error) {
	if sz := t.scalarSize(); sz > 0 {
		b, err := p.read(sz, "a "+t.String()+" value")
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
	return Value{}, p.failAt(p.pos-4, "unknown metadata value type %d", uint32(t))
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

// minEncoded is the fewest bytes one element of type t can take in a file:
// a string is at least its 8-byte length, a nested array its 4-byte type
// and 8-byte count.
func minEncoded(t ValueType) uint64 {
	switch t {
	case TypeString:
		return 8
	case TypeArray:
		return 12
	}
	return uint64(t.scalarSize())
}

func (p *parser) array(depth int) (*Array, error) {
	at := p.pos
	if depth >= maxNesting {
		return nil, p.fail("arrays nested deeper than %d", maxNesting)
	}
	et, err := p.u32("an array element type")
	if err != nil {
		return nil, err
	}
	elem := ValueType(et)
	minBytes := minEncoded(elem)
	if minBytes == 0 {
		return nil, p.failAt(at, "unknown array element type %d", et)
	}
	n, err := p.u64("an array length")
	if err != nil {
		return nil, err
	}
	if n > maxArrayLen {
		return nil, p.failAt(at, "array length %d exceeds the limit of %d", n, maxArrayLen)
	}
	if err := p.checkFits("array element", n, minBytes); err != nil {
		return nil, err
	}
	// Capacity grows with what is actually read, so a lying count on a
	// stream of unknown size fails at end of file, not at allocation.
	capHint := int(min(n, 1024))
	a := &Array{Elem: elem}
	if sz := elem.scalarSize(); sz > 0 {
		if n > math.MaxInt/uint64(sz) {
			return nil, p.failAt(at, "array of %d %s is too large for this platform", n, elem)
		}
		raw, err := p.readBytes(n*uint64(sz), "an array of "+elem.String())
		if err != nil {
			return nil, err
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
	out := make([]*Array, 0, capHint)
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
