package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

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
		return invalid("bad JSON at byte %d: %v", syn.Offset, err)
	case errors.As(err, &typ):
		return invalid("field %q must be %v, not a JSON %s", typ.Field, typ.Type, typ.Value)
	}
	// encoding/json words unknown fields as `json: unknown field "x"`.
	return invalid("%s", strings.TrimPrefix(err.Error(), "json: "))
}
