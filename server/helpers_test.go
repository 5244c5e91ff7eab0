package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quantize"
	"github.com/emberllm/ember/engine/synth"
)

// The tests run real servers on loopback (httptest binds 127.0.0.1) over
// tiny synthetic models written once per test binary: a llama with the
// built-in byte-level vocabulary, and the same with a chat format that
// opens a think block, so answers come back as reasoning.

var tiny struct {
	once            sync.Once
	dir             string
	plain, thinking string
	err             error
}

func writeTinyModel(dir, name string, kvs ...gguf.KV) (string, error) {
	return writeTinyModelCtx(dir, name, 0, kvs...)
}

// writeTinyModelCtx is writeTinyModel with a trained context of ctx
// tokens (0: the preset's).
func writeTinyModelCtx(dir, name string, ctx int, kvs ...gguf.KV) (string, error) {
	cfg, err := synth.Preset("tiny", synth.Llama)
	if err != nil {
		return "", err
	}
	if ctx > 0 {
		cfg.Context = ctx
	}
	v, err := synth.BuiltinVocab(cfg.Vocab)
	if err != nil {
		return "", err
	}
	v.KVs = append(v.KVs, kvs...)
	if err := cfg.Apply(v); err != nil {
		return "", err
	}
	scheme, err := quantize.ParseScheme("Q8_0", true)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".gguf")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if _, err := synth.Write(f, &cfg, v, synth.Options{Scheme: scheme, Seed: 7, Workers: 2}); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// tinyModels returns the paths of the plain and the thinking model.
func tinyModels(t testing.TB) (plain, thinking string) {
	t.Helper()
	tiny.once.Do(func() {
		tiny.dir, tiny.err = os.MkdirTemp("", "ember-server-test")
		if tiny.err != nil {
			return
		}
		if tiny.plain, tiny.err = writeTinyModel(tiny.dir, "tiny-llama"); tiny.err != nil {
			return
		}
		// A preset's name in place of a template selects it: GLM-4's
		// generation prompt ends inside <think>.
		tiny.thinking, tiny.err = writeTinyModel(tiny.dir, "tiny-thinker",
			gguf.KV{Key: "tokenizer.chat_template", Value: gguf.ValStr("glm4")})
	})
	if tiny.err != nil {
		t.Fatal(tiny.err)
	}
	return tiny.plain, tiny.thinking
}

func TestMain(m *testing.M) {
	code := m.Run()
	if tiny.dir != "" {
		os.RemoveAll(tiny.dir)
	}
	os.Exit(code)
}

// testServer is a Server on a loopback listener with a model loaded.
type testServer struct {
	*Server
	http *httptest.Server
	url  string // http://127.0.0.1:PORT
}

func (ts *testServer) wsURL() string { return "ws" + strings.TrimPrefix(ts.url, "http") + "/ws" }

func startServer(t testing.TB, cfg Config, model string) *testServer {
	t.Helper()
	return startServerWith(t, cfg, model, engine.Options{Threads: 2})
}

// startServerWith is startServer loading the model with opts.
func startServerWith(t testing.TB, cfg Config, model string, opts engine.Options) *testServer {
	t.Helper()
	s := New(cfg)
	if model != "" {
		s.LoadModel(model, opts)
		select {
		case <-s.local.ready:
		case <-time.After(20 * time.Second):
			t.Fatal("the model did not load in 20 s")
		}
		if s.local.err != nil {
			t.Fatal(s.local.err)
		}
	}
	hs := httptest.NewServer(s.Handler())
	ts := &testServer{Server: s, http: hs, url: hs.URL}
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		s.Close()
	})
	return ts
}

// post sends a JSON body (a string is sent as is) and returns the status
// and body.
func (ts *testServer) post(t testing.TB, path string, body any, header ...string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		js, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequest("POST", ts.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

// sseEvents splits a server-sent event stream into its data payloads.
func sseEvents(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			return out, fmt.Errorf("not an SSE data line: %q", line)
		}
		out = append(out, data)
	}
	return out, sc.Err()
}

func decode[T any](t testing.TB, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return v
}

func ptr[T any](v T) *T { return &v }

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func engineOptions() engine.Options { return engine.Options{Threads: 2} }

// startHandler serves an already configured Server on loopback.
func startHandler(t testing.TB, s *Server) *testServer {
	t.Helper()
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	return &testServer{Server: s, http: hs, url: hs.URL}
}

func decodeInto(b []byte, v any) error { return json.Unmarshal(b, v) }
