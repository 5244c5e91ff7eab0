package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/emberllm/ember/engine/sample/grammar"
	"github.com/emberllm/ember/server/wire"
)

// statusError is an error that answers with its own HTTP status and
// message: a 4xx for what the client got wrong, a 5xx for what the server
// cannot do (no model, a browser engine gone).
type statusError struct {
	status int
	msg    string
}

// retryError is a statusError that may go away (the model loads, the
// queue empties): its answer carries Retry-After, in seconds.
type retryError struct {
	*statusError
	after int
}

func (e *retryError) Unwrap() error { return e.statusError }

func retryLater(after, status int, format string, args ...any) error {
	return &retryError{&statusError{status, fmt.Sprintf(format, args...)}, after}
}

func (e *statusError) Error() string { return e.msg }

func invalid(format string, args ...any) error {
	return &statusError{400, fmt.Sprintf(format, args...)}
}

// apiError is the OpenAI error body, which official clients parse.
type apiError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

// statusOf maps an error to an HTTP status and a message a client can act
// on: the client's own mistakes are 4xx with their text.
func statusOf(err error) (int, string) {
	var br *statusError
	var mb *http.MaxBytesError
	var inv wire.Invalid
	switch {
	case errors.As(err, &br):
		return br.status, br.msg
	case errors.As(err, &inv):
		return http.StatusBadRequest, string(inv)
	case errors.Is(err, grammar.ErrTooComplex):
		return http.StatusBadRequest, err.Error()
	case errors.As(err, &mb):
		return http.StatusRequestEntityTooLarge, "the request body is larger than " + strconv.FormatInt(mb.Limit, 10) + " bytes"
	case errors.Is(err, context.Canceled):
		return 499, "the request was cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, "the request timed out"
	}
	return http.StatusInternalServerError, err.Error()
}

func errorBody(err error) (int, apiError) {
	status, msg := statusOf(err)
	var body apiError
	body.Error.Message = msg
	switch {
	case status == 401:
		body.Error.Type = "authentication_error"
	case status == 404:
		body.Error.Type = "not_found_error"
	case status < 500:
		body.Error.Type = "invalid_request_error"
	default:
		body.Error.Type = "server_error"
	}
	return status, body
}

func writeError(w http.ResponseWriter, err error) {
	status, body := errorBody(err)
	var re *retryError
	if errors.As(err, &re) {
		w.Header().Set("Retry-After", strconv.Itoa(re.after))
	}
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
