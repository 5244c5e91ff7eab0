package gguf

import "fmt"

// scalarMatches reports whether v is the Go type of t. The writer
// refuses a mismatch because it would encode bytes the tag does not
// describe, producing a file that reads back as something else.
func scalarMatches(t ValueType, v any) bool {
	switch v.(type) {
	case uint8:
		return t == TypeUint8
	case int8:
		return t == TypeInt8
	case uint16:
		return t == TypeUint16
	case int16:
		return t == TypeInt16
	case uint32:
		return t == TypeUint32
	case int32:
		return t == TypeInt32
	case float32:
		return t == TypeFloat32
	case bool:
		return t == TypeBool
	case string:
		return t == TypeString
	case uint64:
		return t == TypeUint64
	case int64:
		return t == TypeInt64
	case float64:
		return t == TypeFloat64
	}
	return false
}

// sliceMatches reports whether elems is the slice type of elem. A nil
// slice of any kind is an empty array.
func sliceMatches(elem ValueType, elems any) bool {
	switch elems.(type) {
	case nil:
		return elem.scalarSize() > 0 || elem == TypeString || elem == TypeArray
	case []uint8:
		return elem == TypeUint8
	case []int8:
		return elem == TypeInt8
	case []uint16:
		return elem == TypeUint16
	case []int16:
		return elem == TypeInt16
	case []uint32:
		return elem == TypeUint32
	case []int32:
		return elem == TypeInt32
	case []float32:
		return elem == TypeFloat32
	case []bool:
		return elem == TypeBool
	case []string:
		return elem == TypeString
	case []uint64:
		return elem == TypeUint64
	case []int64:
		return elem == TypeInt64
	case []float64:
		return elem == TypeFloat64
	case []*Array:
		return elem == TypeArray
	}
	return false
}

// Validate checks that v is encodable: its Go value matches its type tag,
// strings fit the reader's limits, and arrays are consistent and not
// nested deeper than the reader accepts.
func (v Value) Validate() error {
	if v.Type == TypeArray {
		a, ok := v.V.(*Array)
		if !ok || a == nil {
			return fmt.Errorf("array value holds %T, not *Array", v.V)
		}
		return a.validate(0)
	}
	if !scalarMatches(v.Type, v.V) {
		return fmt.Errorf("value of type %s holds %T", v.Type, v.V)
	}
	if s, ok := v.V.(string); ok && len(s) > maxStringLen {
		return fmt.Errorf("string of %d bytes exceeds the limit of %d", len(s), maxStringLen)
	}
	return nil
}

func (a *Array) validate(depth int) error {
	if depth >= maxNesting {
		return fmt.Errorf("arrays nested deeper than %d", maxNesting)
	}
	if !sliceMatches(a.Elem, a.V) {
		return fmt.Errorf("array of %s holds %T", a.Elem, a.V)
	}
	if a.Len() > maxArrayLen {
		return fmt.Errorf("array length %d exceeds the limit of %d", a.Len(), maxArrayLen)
	}
	switch x := a.V.(type) {
	case []string:
		for _, s := range x {
			if len(s) > maxStringLen {
				return fmt.Errorf("string of %d bytes exceeds the limit of %d", len(s), maxStringLen)
			}
		}
	case []*Array:
		for i, sub := range x {
			if sub == nil {
				return fmt.Errorf("nested array %d is nil", i)
			}
			if err := sub.validate(depth + 1); err != nil {
				return err
			}
		}
	}
	return nil
}
