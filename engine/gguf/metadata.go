package gguf

import (
	"fmt"
	"math"
)

// ValueType is the type tag of a metadata value.
type ValueType uint32

// The GGUF metadata value types.
const (
	TypeUint8   ValueType = 0
	TypeInt8    ValueType = 1
	TypeUint16  ValueType = 2
	TypeInt16   ValueType = 3
	TypeUint32  ValueType = 4
	TypeInt32   ValueType = 5
	TypeFloat32 ValueType = 6
	TypeBool    ValueType = 7
	TypeString  ValueType = 8
	TypeArray   ValueType = 9
	TypeUint64  ValueType = 10
	TypeInt64   ValueType = 11
	TypeFloat64 ValueType = 12
)

var valueTypeNames = [...]string{"u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "str", "arr", "u64", "i64", "f64"}

func (t ValueType) String() string {
	if int(t) < len(valueTypeNames) {
		return valueTypeNames[t]
	}
	return fmt.Sprintf("valuetype(%d)", uint32(t))
}

// scalarSize is the encoded size of a fixed-size value type, 0 for string
// and array.
func (t ValueType) scalarSize() int {
	switch t {
	case TypeUint8, TypeInt8, TypeBool:
		return 1
	case TypeUint16, TypeInt16:
		return 2
	case TypeUint32, TypeInt32, TypeFloat32:
		return 4
	case TypeUint64, TypeInt64, TypeFloat64:
		return 8
	}
	return 0
}

// Value is one metadata value. V holds, by Type: uint8, int8, uint16, int16,
// uint32, int32, float32, bool, string, uint64, int64, float64, or *Array.
type Value struct {
	Type ValueType
	V    any
}

// Array is an array value. V is a typed slice of the element type
// ([]uint8 ... []string), or []*Array for nested arrays.
type Array struct {
	Elem ValueType
	V    any
}

// Len is the number of elements.
func (a *Array) Len() int {
	switch v := a.V.(type) {
	case []uint8:
		return len(v)
	case []int8:
		return len(v)
	case []uint16:
		return len(v)
	case []int16:
		return len(v)
	case []uint32:
		return len(v)
	case []int32:
		return len(v)
	case []float32:
		return len(v)
	case []bool:
		return len(v)
	case []string:
		return len(v)
	case []uint64:
		return len(v)
	case []int64:
		return len(v)
	case []float64:
		return len(v)
	case []*Array:
		return len(v)
	}
	return 0
}

// KV is one metadata entry, in file order.
type KV struct {
	Key   string
	Value Value
}

// Metadata is the key/value section of a file, in file order, with lookup
// by key.
type Metadata struct {
	KVs   []KV
	index map[string]int
}

// lookup returns the key index, rebuilding it when KVs was changed
// directly (it is an exported field, so callers may append to it).
func (m *Metadata) lookup() map[string]int {
	if m.index == nil || len(m.index) != len(m.KVs) {
		m.index = make(map[string]int, len(m.KVs))
		for i, kv := range m.KVs {
			if _, dup := m.index[kv.Key]; !dup {
				m.index[kv.Key] = i
			}
		}
	}
	return m.index
}

func (m *Metadata) add(key string, v Value) error {
	idx := m.lookup()
	if _, dup := idx[key]; dup {
		return fmt.Errorf("duplicate metadata key %q", key)
	}
	idx[key] = len(m.KVs)
	m.KVs = append(m.KVs, KV{key, v})
	return nil
}

// Set adds or replaces a key (used when building a file to write).
func (m *Metadata) Set(key string, v Value) {
	if i, ok := m.lookup()[key]; ok {
		m.KVs[i].Value = v
		return
	}
	_ = m.add(key, v)
}

// Delete removes a key if present.
func (m *Metadata) Delete(key string) {
	i, ok := m.lookup()[key]
	if !ok {
		return
	}
	m.KVs = append(m.KVs[:i], m.KVs[i+1:]...)
	m.index = nil
}

// Len is the number of keys.
func (m *Metadata) Len() int { return len(m.KVs) }

// Get returns the value of key.
func (m *Metadata) Get(key string) (Value, bool) {
	i, ok := m.lookup()[key]
	if !ok {
		return Value{}, false
	}
	return m.KVs[i].Value, true
}

// Has reports whether key is present.
func (m *Metadata) Has(key string) bool { _, ok := m.lookup()[key]; return ok }

// String returns a string value.
func (m *Metadata) String(key string) (string, bool) {
	v, ok := m.Get(key)
	if !ok {
		return "", false
	}
	s, ok := v.V.(string)
	return s, ok
}

// Uint returns an integer value of any integer type as uint64; negative
// values are refused.
func (m *Metadata) Uint(key string) (uint64, bool) {
	v, ok := m.Get(key)
	if !ok {
		return 0, false
	}
	return asUint(v.V)
}

// Int returns an integer value of any integer type as int64.
func (m *Metadata) Int(key string) (int64, bool) {
	v, ok := m.Get(key)
	if !ok {
		return 0, false
	}
	return asInt(v.V)
}

// Float returns a number of any numeric type as float64.
func (m *Metadata) Float(key string) (float64, bool) {
	v, ok := m.Get(key)
	if !ok {
		return 0, false
	}
	switch x := v.V.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	if i, ok := asInt(v.V); ok {
		return float64(i), true
	}
	if u, ok := asUint(v.V); ok {
		return float64(u), true
	}
	return 0, false
}

// Bool returns a bool value.
func (m *Metadata) Bool(key string) (bool, bool) {
	v, ok := m.Get(key)
	if !ok {
		return false, false
	}
	b, ok := v.V.(bool)
	return b, ok
}

// Array returns an array value.
func (m *Metadata) Array(key string) (*Array, bool) {
	v, ok := m.Get(key)
	if !ok {
		return nil, false
	}
	a, ok := v.V.(*Array)
	return a, ok
}

// Strings returns an array of strings.
func (m *Metadata) Strings(key string) ([]string, bool) {
	a, ok := m.Array(key)
	if !ok {
		return nil, false
	}
	s, ok := a.V.([]string)
	return s, ok
}

// Float32s returns an array of numbers as float32.
func (m *Metadata) Float32s(key string) ([]float32, bool) {
	a, ok := m.Array(key)
	if !ok {
		return nil, false
	}
	switch x := a.V.(type) {
	case []float32:
		return x, true
	case []float64:
		out := make([]float32, len(x))
		for i, f := range x {
			out[i] = float32(f)
		}
		return out, true
	}
	ints, ok := arrayInts(a)
	if !ok {
		return nil, false
	}
	out := make([]float32, len(ints))
	for i, v := range ints {
		out[i] = float32(v)
	}
	return out, true
}

// Ints returns an array of integers of any integer type as int64.
func (m *Metadata) Ints(key string) ([]int64, bool) {
	a, ok := m.Array(key)
	if !ok {
		return nil, false
	}
	return arrayInts(a)
}

func arrayInts(a *Array) ([]int64, bool) {
	var out []int64
	switch x := a.V.(type) {
	case []uint8:
		out = make([]int64, len(x))
		for i, v := range x {
			out[i] = int64(v)
		}
	case []int8:
		out = make([]int64, len(x))
		for i, v := range x {
			out[i] = int64(v)
		}
	case []uint16:
		out = make([]int64, len(x))
		for i, v := range x {
			out[i] = int64(v)
		}
	case []int16:
		out = make([]int64, len(x))
		for i, v := range x {
			out[i] = int64(v)
		}
	case []uint32:
		out = make([]int64, len(x))
		for i, v := range x {
			out[i] = int64(v)
		}
	case []int32:
		out = make([]int64, len(x))
		for i, v := range x {
			out[i] = int64(v)
		}
	case []uint64:
		out = make([]int64, len(x))
		for i, v := range x {
			if v > math.MaxInt64 {
				return nil, false
			}
			out[i] = int64(v)
		}
	case []int64:
		out = append([]int64(nil), x...)
	case []bool:
		out = make([]int64, len(x))
		for i, v := range x {
			if v {
				out[i] = 1
			}
		}
	default:
		return nil, false
	}
	return out, true
}

func asUint(v any) (uint64, bool) {
	switch x := v.(type) {
	case uint8:
		return uint64(x), true
	case uint16:
		return uint64(x), true
	case uint32:
		return uint64(x), true
	case uint64:
		return x, true
	}
	if i, ok := asInt(v); ok && i >= 0 {
		return uint64(i), true
	}
	return 0, false
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x), true
		}
	}
	return 0, false
}

// Constructors for metadata values, used when building files to write.

func ValU8(v uint8) Value       { return Value{TypeUint8, v} }
func ValI8(v int8) Value        { return Value{TypeInt8, v} }
func ValU16(v uint16) Value     { return Value{TypeUint16, v} }
func ValI16(v int16) Value      { return Value{TypeInt16, v} }
func ValU32(v uint32) Value     { return Value{TypeUint32, v} }
func ValI32(v int32) Value      { return Value{TypeInt32, v} }
func ValU64(v uint64) Value     { return Value{TypeUint64, v} }
func ValI64(v int64) Value      { return Value{TypeInt64, v} }
func ValF32(v float32) Value    { return Value{TypeFloat32, v} }
func ValF64(v float64) Value    { return Value{TypeFloat64, v} }
func ValBool(v bool) Value      { return Value{TypeBool, v} }
func ValStr(v string) Value     { return Value{TypeString, v} }
func ValStrs(v []string) Value  { return Value{TypeArray, &Array{TypeString, v}} }
func ValF32s(v []float32) Value { return Value{TypeArray, &Array{TypeFloat32, v}} }
func ValI32s(v []int32) Value   { return Value{TypeArray, &Array{TypeInt32, v}} }
func ValU32s(v []uint32) Value  { return Value{TypeArray, &Array{TypeUint32, v}} }
func ValBools(v []bool) Value   { return Value{TypeArray, &Array{TypeBool, v}} }

// ValArray wraps an array; elems is a typed slice matching elem
// ([]uint8 ... []string, or []*Array for arrays of arrays).
func ValArray(elem ValueType, elems any) Value { return Value{TypeArray, &Array{elem, elems}} }
