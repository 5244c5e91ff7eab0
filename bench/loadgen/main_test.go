package main

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/server"
)

// startEmber serves a tiny model on a loopback listener.
func startEmber(t *testing.T, path string) string {
	t.Helper()
	s := server.New(server.Config{Parallel: 2})
	s.LoadModel(path, engine.Options{Threads: 1, Context: 64})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := s.WaitModel(ctx); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	return hs.URL
}

// A level against two servers: every request answered with its tokens,
// spread evenly, with latencies that make sense.
func TestLevelAgainstServers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(path, "tiny", synth.Llama, "Q8_0", 1); err != nil {
		t.Fatal(err)
	}
	c := config{servers: []string{startEmber(t, path), startEmber(t, path)}, requests: 6, maxTokens: 5,
		prompt: "Once upon a time", timeout: time.Minute}
	m, err := servedModel(c, c.servers[0])
	if err != nil {
		t.Fatal(err)
	}
	c.model = m
	l := runLevel(c, 3)
	if l.Errors != 0 || l.Requests != 6 || l.Tokens != 30 || l.PerServer[0] != 3 || l.PerServer[1] != 3 {
		t.Fatalf("level: %+v", l)
	}
	if !(l.TokensSec > 0 && l.TTFT.P50 > 0 && l.TTFT.P50 <= l.TTFT.P99 && l.TPOT.P50 > 0 && l.Latency.P99 >= l.TTFT.P99) {
		t.Fatalf("measurements: %+v", l)
	}
}

func TestPercentiles(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(100 - i)
	}
	if p := percentiles(xs); p != (pcts{50, 90, 99}) {
		t.Fatalf("percentiles of 1..100: %+v", p)
	}
	if p := percentiles([]float64{7}); p != (pcts{7, 7, 7}) {
		t.Fatalf("percentiles of one value: %+v", p)
	}
}

func TestCheckURL(t *testing.T) {
	for u, ok := range map[string]bool{
		"http://127.0.0.1:8000": true, "http://localhost:1": true, "http://[::1]:80": true,
		"http://10.0.0.1:8000": false, "http://example.com": false, "ftp://127.0.0.1": false, "127.0.0.1:8000": false,
	} {
		if err := checkURL(u, false); (err == nil) != ok {
			t.Errorf("%s: %v", u, err)
		}
	}
	if err := checkURL("http://example.com", true); err != nil {
		t.Errorf("-any-host: %v", err)
	}
}
