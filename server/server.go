package server

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/web"
)

// Server serves one local model (LoadModel) and any browser engines that
// register over the WebSocket. Its Handler is an http.Handler; the caller
// owns the listener, so tests can bind 127.0.0.1:0.
type Server struct {
	cfg     Config
	started time.Time
	stats   counters

	mu      sync.Mutex
	local   *local
	conns   map[*wsConn]struct{}
	engines []*browserEngine
}

// New makes a server; load a model with LoadModel or let browser engines
// register.
func New(cfg Config) *Server {
	return &Server{cfg: cfg.withDefaults(), started: time.Now(), conns: map[*wsConn]struct{}{}}
}

// Handler routes every endpoint behind the API key check.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /v1/chat/completions", apiHandler(s.chatCompletions))
	mux.Handle("POST /v1/completions", apiHandler(s.completions))
	mux.Handle("GET /v1/models", apiHandler(s.listModels))
	mux.Handle("GET /v1/models/{id}", apiHandler(s.getModel))
	mux.HandleFunc("GET /ws", s.websocket)
	page := http.FileServerFS(web.FS)
	mux.Handle("GET /{$}", page)
	for _, f := range []string{"app.js", "ember.js", "worker.js"} {
		mux.Handle("GET /"+f, page)
	}
	mux.HandleFunc("GET /ember.wasm", s.engineFile)
	mux.HandleFunc("GET /wasm_exec.js", s.engineFile)
	return s.guard(mux)
}

// pageFiles are the page and its scripts, which hold no secret: served
// without the API key, so that the page can ask for it.
var pageFiles = map[string]bool{"/": true, "/app.js": true, "/ember.js": true, "/worker.js": true, "/ember.wasm": true, "/wasm_exec.js": true}

// guard applies what every route needs: the API key and a bounded body.
// Unknown routes and methods answer in the same JSON error shape as the
// API, so clients get a message rather than an HTML page.
func (s *Server) guard(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.APIKey != "" && !pageFiles[r.URL.Path] && !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ember"`)
			writeError(w, &statusError{401, "a valid API key is required (Authorization: Bearer KEY)"})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		if _, pattern := mux.Handler(r); pattern == "" {
			writeError(w, unrouted(mux, r))
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// unrouted says why r has no route: 405 when the path exists for another
// method, else 404.
func unrouted(mux *http.ServeMux, r *http.Request) error {
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		r2 := r.Clone(r.Context())
		r2.Method = m
		if _, p := mux.Handler(r2); p != "" {
			return &statusError{405, fmt.Sprintf("%s is not allowed on %s (use %s)", r.Method, r.URL.Path, m)}
		}
	}
	return &statusError{404, fmt.Sprintf("no route %s %s", r.Method, r.URL.Path)}
}

func (s *Server) authorized(r *http.Request) bool {
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if key == "" {
		key = r.URL.Query().Get("key")
	}
	return subtle.ConstantTimeCompare([]byte(key), []byte(s.cfg.APIKey)) == 1
}

// Close ends every WebSocket and frees the model once its sessions are
// back (in-flight requests end when their clients go).
func (s *Server) Close() error {
	s.mu.Lock()
	conns := make([]*wsConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	l := s.local
	s.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	if l != nil {
		return l.close()
	}
	return nil
}

// generator runs requests: the local model or a browser engine.
type generator interface {
	generate(ctx context.Context, req engine.Request, emit func(engine.Event) error) (*engine.Result, error)
	limits(ctx context.Context) (contextLen, vocab int, err error)
}

// pick finds the generator serving the named model; "" means the local
// model, or the only browser engine when there is no local one.
func (s *Server) pick(name string) (generator, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.local != nil && (name == "" || name == s.local.name) {
		return s.local, s.local.name, nil
	}
	for _, be := range s.engines {
		if name == "" && s.local == nil {
			return be, be.model.ID, nil
		}
		if be.model.ID == name {
			return be, name, nil
		}
	}
	if name == "" {
		return nil, "", &statusError{503, "no model is loaded and no browser engine is registered"}
	}
	return nil, "", &statusError{404, fmt.Sprintf("model %q is not served here (GET /v1/models lists them)", name)}
}

// prepare resolves the model and checks a request's options and size
// against it.
func (s *Server) prepare(ctx context.Context, model string, opts *Options, req *engine.Request) (generator, string, error) {
	g, name, err := s.pick(model)
	if err != nil {
		return nil, "", err
	}
	n := len(req.Prompt)
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.ReasoningContent)
	}
	if n > s.cfg.MaxPromptBytes {
		return nil, "", &statusError{400, fmt.Sprintf("the prompt is %d bytes; the limit is %d", n, s.cfg.MaxPromptBytes)}
	}
	if n == 0 {
		return nil, "", invalid("the prompt is empty")
	}
	ctxLen, vocab, err := g.limits(ctx)
	if err != nil {
		return nil, "", err
	}
	if opts == nil {
		opts = &Options{}
	}
	if err := opts.Apply(req, ctxLen, vocab); err != nil {
		return nil, "", err
	}
	return g, name, nil
}

// run generates, keeping the server's counters.
func (s *Server) run(ctx context.Context, g generator, req engine.Request, emit func(engine.Event) error) (*engine.Result, error) {
	s.stats.requests.Add(1)
	// A failed emit means the client is gone (a write to a closed
	// connection), which may be noticed before ctx ends: a cancel too.
	gone := false
	var wrapped func(engine.Event) error
	if emit != nil {
		wrapped = func(ev engine.Event) error {
			err := emit(ev)
			gone = gone || err != nil
			return err
		}
	}
	res, err := g.generate(ctx, req, wrapped)
	switch {
	case err == nil:
		s.stats.completed.Add(1)
	case gone || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		s.stats.cancelled.Add(1)
	default:
		s.stats.failed.Add(1)
	}
	if res != nil {
		s.stats.promptTokens.Add(int64(res.Stats.PromptTokens))
		s.stats.generatedTokens.Add(int64(res.Stats.GeneratedTokens))
	}
	return res, err
}

// engineFile serves the in-tab engine's files: ember.wasm (from a
// gzipped copy where there is one, which browsers take as is) and
// wasm_exec.js. Without them it says how to get them; the page then offers
// the server's model only.
func (s *Server) engineFile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	fsys := s.cfg.Engine
	missing := &statusError{404, "this ember was built without the in-tab engine: build it with `make build` (or pass --web with the folder `make web` writes)"}
	if fsys == nil {
		writeError(w, missing)
		return
	}
	typ := "text/javascript"
	if name == "ember.wasm" {
		typ = "application/wasm"
		if gz, err := fs.ReadFile(fsys, name+".gz"); err == nil {
			w.Header().Set("Content-Type", typ)
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Vary", "Accept-Encoding")
			http.ServeContent(w, r, name, s.started, bytes.NewReader(gz))
			return
		}
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		writeError(w, missing)
		return
	}
	w.Header().Set("Content-Type", typ)
	http.ServeContent(w, r, name, s.started, bytes.NewReader(data))
}
