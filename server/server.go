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
	"sync/atomic"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/web"
)

// Server serves one local model (LoadModel) and any browser engines that
// register over the WebSocket. Handler is its http.Handler, for a caller
// that owns the listener; Serve runs it with the connection timeouts a
// public server needs, and Shutdown drains it.
type Server struct {
	cfg     Config
	started time.Time
	stats   counters
	metrics *metrics

	mu      sync.Mutex
	local   *local
	conns   map[*wsConn]struct{}
	engines []*browserEngine
	hs      *http.Server

	// draining is set by Shutdown: requests are refused, running ones
	// finish. cut ends the generations still running when the grace
	// period is over; active counts them.
	draining atomic.Bool
	cutCtx   context.Context
	cut      context.CancelCauseFunc
	activeMu sync.Mutex
	active   int
	idle     chan struct{} // closed and replaced when active drops to 0
}

// New makes a server; load a model with LoadModel or let browser engines
// register.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg.withDefaults(), started: time.Now(), metrics: newMetrics(), conns: map[*wsConn]struct{}{}, idle: make(chan struct{})}
	s.cutCtx, s.cut = context.WithCancelCause(context.Background())
	return s
}

// Handler routes every endpoint behind the API key check.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /v1/chat/completions", apiHandler(s.chatCompletions))
	mux.Handle("POST /v1/completions", apiHandler(s.completions))
	mux.Handle("GET /v1/models", apiHandler(s.listModels))
	mux.Handle("GET /v1/models/{id}", apiHandler(s.getModel))
	mux.HandleFunc("GET /ws", s.websocket)
	mux.HandleFunc("GET /health", s.health)
	mux.HandleFunc("GET /ready", s.ready)
	mux.HandleFunc("GET /metrics", s.metricsPage)
	page := http.FileServerFS(web.FS)
	mux.Handle("GET /{$}", page)
	for _, f := range []string{"app.js", "ember.js", "worker.js"} {
		mux.Handle("GET /"+f, page)
	}
	mux.HandleFunc("GET /ember.wasm", s.engineFile)
	mux.HandleFunc("GET /wasm_exec.js", s.engineFile)
	return s.guard(mux)
}

// openFiles hold no secret and answer without the API key: the page and
// its scripts, so that the page can ask for the key, the health probes a
// load balancer sends and the metrics its scheduler scrapes.
var openFiles = map[string]bool{"/": true, "/app.js": true, "/ember.js": true, "/worker.js": true, "/ember.wasm": true, "/wasm_exec.js": true,
	"/health": true, "/ready": true, "/metrics": true}

// guard applies what every route needs: the API key and a bounded body.
// Unknown routes and methods answer in the same JSON error shape as the
// API, so clients get a message rather than an HTML page.
func (s *Server) guard(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.APIKey != "" && !openFiles[r.URL.Path] && !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ember"`)
			msg := "a valid API key is required (Authorization: Bearer KEY)"
			if r.URL.Path != "/ws" && r.URL.Query().Has("key") {
				msg += "; a key in the URL is accepted on /ws only, where browsers cannot send headers"
			}
			writeError(w, &statusError{401, msg})
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

// authorized checks the key: in the Authorization header everywhere, and
// also as ?key= on the WebSocket upgrade, which browsers cannot give
// headers. Keys in the URLs of the HTTP API are refused: URLs end up in
// logs and histories.
func (s *Server) authorized(r *http.Request) bool {
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if key == "" && r.URL.Path == "/ws" {
		key = r.URL.Query().Get("key")
	}
	return subtle.ConstantTimeCompare([]byte(key), []byte(s.cfg.APIKey)) == 1
}

// health answers 200 while the process serves at all (a liveness probe).
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// ready answers 200 when requests can be served now: the model is loaded
// and the server is not draining (a readiness probe); 503 otherwise.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	l := s.local
	s.mu.Unlock()
	switch {
	case s.draining.Load():
		writeError(w, errShuttingDown)
	case l != nil && l.loading():
		writeError(w, l.loadingError())
	case l != nil && l.err != nil:
		writeError(w, l.loadErr())
	case l == nil && len(s.models()) == 0:
		writeError(w, retryLater(5, 503, "no model is loaded and no browser engine is registered"))
	default:
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	}
}

// Close ends every WebSocket and frees the model once its sessions are
// back (in-flight requests end when their clients go). Shutdown is the
// graceful way.
func (s *Server) Close() error {
	s.draining.Store(true)
	s.mu.Lock()
	l, hs := s.local, s.hs
	s.mu.Unlock()
	if hs != nil {
		hs.Close()
	}
	for _, c := range s.connections() {
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
	if s.draining.Load() {
		return nil, "", errShuttingDown
	}
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
// against it. wait says whether a request may wait for a model that is
// still loading (the WebSocket, whose clients see the load's progress);
// the HTTP API answers 503 with Retry-After instead.
func (s *Server) prepare(ctx context.Context, model string, opts *Options, req *engine.Request, wait bool, x *extras) (generator, string, error) {
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
	if l, ok := g.(*local); ok && !wait && l.loading() {
		return nil, "", l.loadingError()
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
	if err := x.apply(g, req, vocab); err != nil {
		return nil, "", err
	}
	return g, name, nil
}

// errShutdown is the cause of generations cut when the drain's grace
// period ends; errShuttingDown answers requests made while draining.
var (
	errShutdown     = errors.New("the server shut down")
	errShuttingDown = retryLater(5, 503, "the server is shutting down")
)

// run generates, keeping the server's counters. t is the request's place
// in the local model's queue (nil: take one now); end, when set, hears
// the result before the local model's session goes to the next request.
// A generation cut by a drain returns errShutdown with what it made.
func (s *Server) run(ctx context.Context, g generator, t *ticket, req engine.Request, emit func(engine.Event) error, end func(*engine.Result, error)) (*engine.Result, error) {
	if !s.begin() {
		if t != nil {
			t.cancel()
		}
		if end != nil {
			end(nil, errShuttingDown)
		}
		return nil, errShuttingDown
	}
	defer s.finish()
	s.stats.requests.Add(1)
	began := time.Now()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(s.cutCtx, func() { cancel(errShutdown) })
	defer stop()
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
	cutShort := func(res *engine.Result, err error) (*engine.Result, error) {
		if err != nil && context.Cause(ctx) == errShutdown {
			if res == nil {
				res = &engine.Result{}
			}
			res.Stats.StopReason = "shutdown"
			return res, errShutdown
		}
		return res, err
	}
	// The counters are kept before end hears the result, so that a client
	// that reads the stats on its final event sees its request counted.
	counted := false
	count := func(res *engine.Result, err error) {
		counted = true
		switch {
		case err == nil:
			s.stats.completed.Add(1)
		case gone || errors.Is(err, errShutdown) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
			s.stats.cancelled.Add(1)
		default:
			s.stats.failed.Add(1)
		}
		if res != nil {
			s.stats.promptTokens.Add(int64(res.Stats.PromptTokens))
			s.stats.generatedTokens.Add(int64(res.Stats.GeneratedTokens))
		}
		s.metrics.request(res, time.Since(began))
	}
	hook := func(r *engine.Result, e error) {
		r, e = cutShort(r, e)
		count(r, e)
		if end != nil {
			end(r, e)
		}
	}
	var res *engine.Result
	var err error
	if l, ok := g.(*local); ok {
		res, err = l.runTicket(ctx, t, req, wrapped, hook)
	} else {
		res, err = g.generate(ctx, req, wrapped)
		hook(res, err)
	}
	res, err = cutShort(res, err)
	if !counted {
		count(res, err)
	}
	return res, err
}

// begin counts a generation in, unless the server drains.
func (s *Server) begin() bool {
	s.activeMu.Lock()
	defer s.activeMu.Unlock()
	if s.draining.Load() {
		return false
	}
	s.active++
	return true
}

func (s *Server) finish() {
	s.activeMu.Lock()
	defer s.activeMu.Unlock()
	if s.active--; s.active == 0 {
		close(s.idle)
		s.idle = make(chan struct{})
	}
}

// idleNow returns a channel closed once no generation runs.
func (s *Server) idleNow() <-chan struct{} {
	s.activeMu.Lock()
	defer s.activeMu.Unlock()
	if s.active == 0 {
		c := make(chan struct{})
		close(c)
		return c
	}
	return s.idle
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
