package server

import (
	"io/fs"
	"time"

	"github.com/emberllm/ember/web"
)

// Config is what a Server enforces. The zero value of each field means its
// default (see withDefaults).
type Config struct {
	// APIKey, when set, is required on every API route: as
	// "Authorization: Bearer KEY", or as ?key=KEY where a browser cannot
	// set headers (the WebSocket). The page and its scripts hold no secret
	// and load without it.
	APIKey string
	// Parallel is the number of sessions generating at once; requests
	// beyond it wait in a queue. It is lowered when memory does not allow it.
	Parallel int
	// Origins are the extra origins (scheme://host[:port]) whose pages may
	// open the WebSocket; the server's own origin always may.
	Origins []string
	// MaxBodyBytes bounds a request body and a WebSocket message.
	MaxBodyBytes int64
	// MaxPromptBytes bounds the text of a prompt or of all messages.
	MaxPromptBytes int
	// MaxQueue bounds the requests waiting for a session; more get 503.
	MaxQueue int
	// MaxInflight bounds the requests one WebSocket has in flight.
	MaxInflight int
	// ReadTimeout bounds reading a request's headers and body: a client
	// that stalls mid-request is cut (408). 30 s by default.
	ReadTimeout time.Duration
	// WriteTimeout bounds one write of a response, stream event or
	// WebSocket message: a client that stops reading does not hold a
	// session forever. 10 s by default.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection with no request, and a
	// WebSocket that sends nothing (not even the pong to the server's
	// pings, sent every half of it) for this long. 2 minutes by default.
	IdleTimeout time.Duration
	// RelayTimeout bounds how long a relayed request waits for a browser
	// engine's next event.
	RelayTimeout time.Duration
	// Engine holds the files of the page's in-tab engine: ember.wasm (or
	// ember.wasm.gz, served compressed) and wasm_exec.js; nil means what
	// the binary embeds (web.Engine: a `make build` has them).
	Engine fs.FS
	// Logf, when set, receives one line per notable event.
	Logf func(format string, args ...any)
}

func (c Config) withDefaults() Config {
	if c.Parallel <= 0 {
		c.Parallel = 1
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = 1 << 20
	}
	if c.MaxPromptBytes <= 0 {
		c.MaxPromptBytes = 256 << 10
	}
	if c.MaxQueue <= 0 {
		c.MaxQueue = 1024
	}
	if c.MaxInflight <= 0 {
		c.MaxInflight = 256
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = 30 * time.Second
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 10 * time.Second
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 2 * time.Minute
	}
	if c.RelayTimeout <= 0 {
		c.RelayTimeout = 5 * time.Minute
	}
	if c.Engine == nil {
		c.Engine = web.Engine()
	}
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
	return c
}
