package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"syscall"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/registry"
	"github.com/emberllm/ember/server"
)

func init() {
	register("serve", "serve a model: OpenAI-compatible API, WebSocket, web chat page", runServe)
}

// serveOptions are ember serve's flags.
type serveOptions struct {
	mf        modelFlags
	addr, key string
	parallel  int
	maxBody   int64
	maxPrompt int
	origins   stringList
	drain     time.Duration
	webDir    string
}

// parseServe reads and checks ember serve's flags (deploy/'s manifests
// and images are held to them: deploy_test.go).
func parseServe(args []string) (*serveOptions, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	o := &serveOptions{}
	o.mf.register(fs)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8000", "address to listen on (loopback unless you say otherwise)")
	fs.StringVar(&o.key, "api-key", os.Getenv("EMBER_API_KEY"), "API key every route requires (default $EMBER_API_KEY; empty: none)")
	fs.IntVar(&o.parallel, "parallel", 1, "sessions generating at once, decoding together in one batch (fewer if memory does not allow)")
	fs.Int64Var(&o.maxBody, "max-body", 1<<20, "largest request body or WebSocket message, in bytes")
	fs.IntVar(&o.maxPrompt, "max-prompt", 256<<10, "largest prompt (all messages together), in bytes")
	fs.Var(&o.origins, "origin", "another origin (scheme://host:port) whose pages may use the WebSocket (repeatable)")
	fs.DurationVar(&o.drain, "drain", 30*time.Second, "on SIGTERM or SIGINT, how long running generations may take to finish before they are cut")
	fs.StringVar(&o.webDir, "web", "", "folder holding the page's in-tab engine, ember.wasm and wasm_exec.js (make web writes out/web; default: what the binary embeds)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.parallel < 1 {
		return nil, fmt.Errorf("--parallel must be at least 1")
	}
	if o.drain < 0 {
		return nil, fmt.Errorf("--drain %v is negative", o.drain)
	}
	if o.mf.model != "" {
		if err := o.mf.check(); err != nil {
			return nil, err
		}
	}
	return o, nil
}

func runServe(args []string) error {
	o, err := parseServe(args)
	if err != nil {
		return err
	}
	mf := o.mf
	logger := log.New(os.Stderr, "ember serve: ", log.LstdFlags)
	cfg := server.Config{
		APIKey: o.key, Parallel: o.parallel, Origins: o.origins, MaxBodyBytes: o.maxBody, MaxPromptBytes: o.maxPrompt,
		Logf: logger.Printf,
	}
	if o.webDir != "" {
		if _, err := os.Stat(filepath.Join(o.webDir, "ember.wasm")); err != nil {
			return fmt.Errorf("--web %s: no ember.wasm there (make web writes out/web)", o.webDir)
		}
		cfg.Engine = os.DirFS(o.webDir)
	}
	srv := server.New(cfg)
	defer srv.Close()
	// Bind first: the port answers at once, and says "loading" (503 with
	// Retry-After; /ready) while the model downloads and loads.
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() && o.key == "" {
		logger.Printf("warning: listening on %s without --api-key: anyone who can reach it can use it", host)
	}
	if mf.model != "" {
		srv.LoadModelWith(servedName(mf.model), func() (string, engine.Options, error) {
			path, err := resolveModel(mf.model)
			if err != nil {
				return "", engine.Options{}, err
			}
			be, err := newBackend(mf.backend, mf.threads, mf.mmap, mf.verbose)
			if err != nil {
				return "", engine.Options{}, err
			}
			return path, engine.Options{Backend: be, Threads: mf.threads, Context: mf.ctx}, nil
		})
	}
	// Tests and scripts read the address from this line (port 0 picks one).
	fmt.Printf("listening on http://%s (chat page /, OpenAI API /v1, WebSocket /ws)\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	go func() {
		// A model that cannot load ends the command rather than leave a
		// server that answers every request with 503.
		if err := srv.WaitModel(ctx); err != nil && ctx.Err() == nil {
			errc <- err
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stop()
	logger.Printf("draining: no new requests; running generations get up to %v to finish (a second signal ends them now)", o.drain)
	dctx, cancel := context.WithTimeout(context.Background(), o.drain)
	defer cancel()
	again := make(chan os.Signal, 1)
	signal.Notify(again, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(again)
	go func() {
		select {
		case <-again:
			cancel()
		case <-dctx.Done():
		}
	}()
	if err := srv.Shutdown(dctx); err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return err
	}
	logger.Printf("stopped")
	return nil
}

// servedName is the id a --model value is served under: a registry name
// as it is, a URL's file name, a file's name without .gguf.
func servedName(ref string) string {
	if m, ok := registry.Lookup(ref); ok {
		return m.Name
	}
	if registry.IsURL(ref) {
		if u, err := url.Parse(ref); err == nil {
			return server.ModelName(path.Base(u.Path))
		}
	}
	return server.ModelName(ref)
}
