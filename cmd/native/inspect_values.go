package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/emberllm/ember/engine/gguf"
)

// Metadata values can be huge (a vocabulary of 150k strings, a chat
// template of several kilobytes); the inspector shows their start and
// their length.
const (
	inspectStrText    = 72  // bytes of a string shown in text
	inspectStrElem    = 24  // bytes of a string shown inside an array
	inspectArrayWidth = 80  // characters of array elements per text line
	inspectStrJSON    = 256 // bytes of a string kept in JSON
	inspectArrayHead  = 8   // elements of an array kept in JSON
	inspectArrayFirst = 3   // elements always shown in text, however long
	inspectArrayMost  = 8   // elements at most shown in text
)

// inspectCut returns at most n bytes of s, not splitting a UTF-8 sequence.
func inspectCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// inspectStringText quotes s, shortened to limit bytes with its length
// noted when longer or when it spans lines.
func inspectStringText(s string, limit int) string {
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(inspectCut(s, limit)), len(s))
}

func inspectFloat(f float64, bits int) string {
	return strconv.FormatFloat(f, 'g', -1, bits)
}

// inspectScalarText formats one non-array value.
func inspectScalarText(v any, strLimit int) string {
	switch x := v.(type) {
	case string:
		return inspectStringText(x, strLimit)
	case float32:
		return inspectFloat(float64(x), 32)
	case float64:
		return inspectFloat(x, 64)
	case *gguf.Array:
		return inspectArrayText(x, inspectArrayWidth/2)
	}
	return fmt.Sprint(v)
}

// inspectArrayText writes `[str x 151936] "!", "\"", "#", ...`: the type
// and length, then elements while they fit in width characters.
func inspectArrayText(a *gguf.Array, width int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s x %d]", a.Elem, a.Len())
	elems := reflect.ValueOf(a.V)
	n := a.Len()
	used := 0
	for i := 0; i < n; i++ {
		s := inspectScalarText(elems.Index(i).Interface(), inspectStrElem)
		if i >= inspectArrayMost || i >= inspectArrayFirst && used+len(s) > width {
			b.WriteString(", ...")
			return b.String()
		}
		if i == 0 {
			b.WriteString(" ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(s)
		used += len(s) + 2
	}
	return b.String()
}

// inspectValueText formats a metadata value on one line.
func inspectValueText(v gguf.Value) string {
	if a, ok := v.V.(*gguf.Array); ok {
		return inspectArrayText(a, inspectArrayWidth)
	}
	return inspectScalarText(v.V, inspectStrText)
}

// inspectMetadata marshals metadata as one JSON object in file order, each
// value an object with its type and a shortened value.
type inspectMetadata struct{ kvs []gguf.KV }

func (m inspectMetadata) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // tokens such as <s> stay readable
	b.WriteByte('{')
	for i, kv := range m.kvs {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(kv.Key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Encode(inspectValueJSON(kv.Value)); err != nil {
			return nil, fmt.Errorf("metadata key %q: %w", kv.Key, err)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// inspectJSONValue is one metadata value in JSON. Arrays keep their first
// elements in Head and their full length in Len; long strings keep their
// start in Value, their length in Len, and set Truncated.
type inspectJSONValue struct {
	Type      string `json:"type"`
	Elem      string `json:"elem,omitempty"`
	Len       *int   `json:"len,omitempty"`
	Value     any    `json:"value,omitempty"`
	Head      []any  `json:"head,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

func inspectValueJSON(v gguf.Value) inspectJSONValue {
	if a, ok := v.V.(*gguf.Array); ok {
		return inspectArrayJSON(a)
	}
	out := inspectJSONValue{Type: v.Type.String()}
	out.Value, out.Truncated = inspectScalarJSON(v.V)
	if s, ok := v.V.(string); ok && out.Truncated {
		n := len(s)
		out.Len = &n
	}
	return out
}

func inspectArrayJSON(a *gguf.Array) inspectJSONValue {
	n := a.Len()
	out := inspectJSONValue{Type: "arr", Elem: a.Elem.String(), Len: &n, Head: []any{}}
	elems := reflect.ValueOf(a.V)
	for i := 0; i < min(n, inspectArrayHead); i++ {
		e := elems.Index(i).Interface()
		if sub, ok := e.(*gguf.Array); ok {
			out.Head = append(out.Head, inspectArrayJSON(sub))
			continue
		}
		v, _ := inspectScalarJSON(e)
		out.Head = append(out.Head, v)
	}
	out.Truncated = n > inspectArrayHead
	return out
}

// inspectScalarJSON returns a JSON-encodable form of a scalar: strings cut
// to inspectStrJSON bytes, and the floats JSON cannot hold (NaN, ±Inf) as
// strings.
func inspectScalarJSON(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		if len(x) > inspectStrJSON {
			return inspectCut(x, inspectStrJSON), true
		}
		return x, false
	case float32:
		return inspectJSONFloat(float64(x), 32), false
	case float64:
		return inspectJSONFloat(x, 64), false
	}
	return v, false
}

func inspectJSONFloat(f float64, bits int) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return inspectFloat(f, bits)
	}
	return json.Number(inspectFloat(f, bits))
}
