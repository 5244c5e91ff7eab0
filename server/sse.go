package server

import (
	"encoding/json"
	"net/http"
	"time"
)

// sse writes a server-sent event stream. Headers go out with the first
// event, so an error found before any token (a prompt too long for the
// context) can still be a plain 4xx response.
type sse struct {
	w       http.ResponseWriter
	started bool
	timeout time.Duration // bounds each write: a client that stops reading is cut
}

func (e *sse) start() {
	if e.started {
		return
	}
	e.started = true
	h := e.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // proxies must not hold tokens back
	e.w.WriteHeader(http.StatusOK)
}

// send writes one "data:" event and flushes it; an error means the client
// is gone.
func (e *sse) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return e.raw(b)
}

func (e *sse) raw(b []byte) error {
	e.start()
	rc := http.NewResponseController(e.w)
	if e.timeout > 0 {
		rc.SetWriteDeadline(time.Now().Add(e.timeout))
	}
	if _, err := e.w.Write(append(append([]byte("data: "), b...), '\n', '\n')); err != nil {
		return err
	}
	return rc.Flush()
}

// fail ends a stream with an error: as a response when nothing was sent,
// else as an error event (the OpenAI clients raise it).
func (e *sse) fail(err error) {
	if !e.started {
		writeError(e.w, err)
		return
	}
	_, body := errorBody(err)
	e.send(body)
}

func (e *sse) done() { e.raw([]byte("[DONE]")) }
