package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"
)

// readBody reads a request body whole within the read timeout, so that a
// client that stalls after its headers is cut (408) rather than holding
// the connection, and checks that it is UTF-8 (checkUTF8).
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.cfg.ReadTimeout))
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			// The deadline stays: the server's own reads of the rest of
			// the body then fail too, and the connection closes.
			w.Header().Set("Connection", "close")
			return nil, &statusError{http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %v", s.cfg.ReadTimeout)}
		}
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, err
		}
		return nil, invalid("reading the request body: %v", err)
	}
	rc.SetReadDeadline(time.Time{})
	return b, checkUTF8(b)
}

// checkUTF8 refuses JSON text that is not UTF-8, and \u escapes naming
// half of a surrogate pair alone: encoding/json would quietly turn either
// into U+FFFD, changing what the client sent.
func checkUTF8(b []byte) error {
	if !utf8.Valid(b) {
		off := 0
		for off < len(b) {
			r, n := utf8.DecodeRune(b[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return invalid("the body is not valid UTF-8 (at byte %d); JSON text must be UTF-8", off)
	}
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !in {
			in = c == '"'
			continue
		}
		switch c {
		case '"':
			in = false
		case '\\':
			if i+5 >= len(b) || b[i+1] != 'u' {
				i++
				continue
			}
			v, ok := hex4(b[i+2 : i+6])
			if !ok {
				i++
				continue
			}
			if v >= 0xD800 && v < 0xDC00 && i+11 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
				if lo, ok := hex4(b[i+8 : i+12]); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 11
					continue
				}
			}
			if v >= 0xD800 && v <= 0xDFFF {
				return invalid("the escape \\u%04X at byte %d is half of a UTF-16 surrogate pair without its other half: it names no character", v, i)
			}
			i += 5
		}
	}
	return nil
}

func hex4(b []byte) (rune, bool) {
	var v rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// decodeStrict reads one JSON value into v, refusing unknown fields and
// trailing data, so that a misspelt option is an error rather than
// silently ignored. Errors are client errors with a message.
func decodeStrict(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return invalid("the body holds more than one JSON value")
	}
	return nil
}

func decodeStrictBytes(b []byte, v any) error { return decodeStrict(bytes.NewReader(b), v) }

func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &mb):
		return err
	case errors.Is(err, io.EOF):
		return invalid("the body is empty; a JSON object is expected")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return invalid("the JSON body ends too early")
	case errors.As(err, &syn):
		return invalid("bad JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		field := jsonPath(typ.Field)
		if msg := outOfRange(typ); msg != "" {
			return invalid("field %q: %s", field, msg)
		}
		if field == "" {
			return invalid("the body must be %s, not %s", jsonKind(typ.Type), jsonValueDesc(typ.Value))
		}
		return invalid("field %q must be %s, not %s", field, jsonKind(typ.Type), jsonValueDesc(typ.Value))
	}
	// encoding/json words unknown fields as `json: unknown field "x"`.
	return invalid("%s", strings.TrimPrefix(err.Error(), "json: "))
}

// outOfRange words a number of the right kind that the field cannot
// hold (1e400 for a number, 2^63 for an integer): "must be a number, not
// the number 1e400" would contradict itself. It is "" for other type errors.
func outOfRange(typ *json.UnmarshalTypeError) string {
	num, ok := strings.CutPrefix(typ.Value, "number ")
	if !ok {
		return ""
	}
	t := typ.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "the number " + num + " is out of range"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		// Digits alone are an integer too large (or, for an unsigned
		// field, negative); a fraction or an exponent is no integer.
		if strings.Trim(num, "-0123456789") == "" {
			return "the integer " + num + " is out of range"
		}
	}
	return ""
}

// jsonPath is a field path as the client wrote it: encoding/json names
// the embedded structs of the path by their Go types, which mean nothing
// to a client.
func jsonPath(field string) string {
	var keep []string
	for _, p := range strings.Split(field, ".") {
		if p == "" || p == "commonRequest" || (p[0] >= 'A' && p[0] <= 'Z') {
			continue
		}
		keep = append(keep, p)
	}
	return strings.Join(keep, ".")
}

// jsonValueDesc words encoding/json's description of a value ("string",
// "number 1.5") as a phrase.
func jsonValueDesc(v string) string {
	switch {
	case v == "array" || v == "object":
		return "an " + v
	case v == "bool":
		return "true or false"
	case strings.HasPrefix(v, "number "):
		return "the number " + strings.TrimPrefix(v, "number ")
	}
	return "a " + v
}

// jsonKind names what a Go type takes in JSON terms, so that errors speak
// of numbers and strings, never of Go types.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another JSON type"
}
