package server

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emberllm/ember/engine"
)

// A client connected before the model loads sees the load's progress:
// bytes of weights growing to the total, then ready; requests sent during
// the load wait for it.
func TestServeLoadProgress(t *testing.T) {
	plain, _ := tinyModels(t)
	s := New(Config{})
	ts := startHandler(t, s)
	t.Cleanup(func() { s.Close() })
	c := dialRaw(t, ts, nil)
	// Nothing is loaded yet: the server has no model to announce.
	c.WriteJSON(Message{Type: TypeModels, ID: "m"})
	if m := readUntil(t, c, func(m Message) bool { return m.ID == "m" }); len(m) != 1 || len(m[0].Models) != 0 {
		t.Fatalf("before the load: %+v", m)
	}
	// The caller's own Progress hears the load as well.
	var heard, heardTotal atomic.Int64
	s.LoadModel(plain, engine.Options{Threads: 2, Progress: func(done, total int64) {
		heard.Store(done)
		heardTotal.Store(total)
	}})
	c.WriteJSON(Message{Type: TypeGenerate, ID: "early", Prompt: "Once", Raw: true, Options: &Options{MaxTokens: ptr(3), IgnoreEOS: ptr(true)}})
	var last int64
	var loading, ready int
	msgs := readUntil(t, c, func(m Message) bool { return m.ID == "early" && m.Type != TypeToken })
	for _, m := range msgs {
		if m.Type != TypeProgress {
			continue
		}
		p := m.Progress
		if p.Model != "tiny-llama" || p.Total <= 0 || p.Loaded < last || p.Loaded > p.Total {
			t.Fatalf("progress %+v after %d bytes", p, last)
		}
		last = p.Loaded
		switch p.State {
		case "loading":
			loading++
		case "ready":
			ready++
			if p.Loaded != p.Total {
				t.Fatalf("ready at %d of %d bytes", p.Loaded, p.Total)
			}
		}
	}
	if end := msgs[len(msgs)-1]; loading < 1 || ready != 1 || end.Type != TypeDone || end.Stats.GeneratedTokens != 3 {
		t.Fatalf("%d loading and %d ready events, then %+v", loading, ready, end)
	}
	if heard.Load() != last || heardTotal.Load() != last {
		t.Fatalf("the caller's Progress heard %d of %d bytes, the clients %d", heard.Load(), heardTotal.Load(), last)
	}
}

// The number of sessions follows the memory their KV caches take.
func TestServeSessionsFitMemory(t *testing.T) {
	plain, _ := tinyModels(t)
	e, err := engine.Load(plain, engine.Options{Threads: 1, Context: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range []struct {
		avail uint64
		want  int
	}{{0, 3}, {1, 1}, {1 << 40, 3}} {
		b, err := openBatch(e, 3, c.avail)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(b.Sessions()); n != c.want {
			t.Errorf("avail %d: %d sessions, want %d", c.avail, n, c.want)
		}
		b.Close()
	}
}

// Requests on one connection run concurrently and each gets its own
// answer, the one it gets alone.
func TestServeWebSocketMultiplexed(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Parallel: 3}, plain)
	cl := dialClient(t, ts)
	prompts := []string{"Once", "upon a", "time there", "was a cat", "who sat", "on the mat", "and then", "went home"}
	run := func(p string, n int) (string, error) {
		var text string
		_, err := cl.Generate(context.Background(), Message{Prompt: p, Raw: true, Options: &Options{MaxTokens: ptr(n), Temperature: ptr(0.0), IgnoreEOS: ptr(true)}},
			func(m Message) { text += m.Text })
		return text, err
	}
	got := make([]string, len(prompts))
	errs := make(chan error, len(prompts))
	t0 := time.Now()
	for i, p := range prompts {
		go func() {
			var err error
			got[i], err = run(p, 4+i)
			errs <- err
		}()
	}
	for range prompts {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d requests on one connection in %v", len(prompts), time.Since(t0))
	for i, p := range prompts {
		if want, err := run(p, 4+i); err != nil || got[i] != want {
			t.Fatalf("%q: together %q, alone %q (%v)", p, got[i], want, err)
		}
	}
}
