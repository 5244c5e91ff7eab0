package server

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/server/wire"
	"github.com/gorilla/websocket"
)

// browserStandIn plays the browser tab of a later issue: it registers a
// model over the WebSocket and answers relayed generate requests with a
// real engine, one at a time, honouring cancels. It speaks only the
// protocol, as the wasm page will.
type browserStandIn struct {
	c        *websocket.Conn
	wmu      sync.Mutex
	mu       sync.Mutex
	cancels  map[string]context.CancelFunc
	received []Message
	jobs     chan Message
}

func startBrowser(t *testing.T, ts *testServer, modelPath, name string) *browserStandIn {
	t.Helper()
	e, err := engine.Load(modelPath, engine.Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := e.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	c := dialRaw(t, ts, nil)
	b := &browserStandIn{c: c, cancels: map[string]context.CancelFunc{}, jobs: make(chan Message, 16)}
	b.send(Message{Type: TypeRegister, ID: "reg", Models: []ModelInfo{{ID: name, Context: e.Context, Vocab: e.Tokenizer.VocabSize()}}})
	ack := readUntil(t, c, func(m Message) bool { return m.ID == "reg" })
	if last := ack[len(ack)-1]; last.Type != TypeRegistered {
		t.Fatalf("register: %+v", last)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the engine: one request at a time, as one tab would
		defer wg.Done()
		for m := range b.jobs {
			ctx, cancel := context.WithCancel(context.Background())
			b.mu.Lock()
			b.cancels[m.ID] = cancel
			b.mu.Unlock()
			req, err := m.Request()
			if err == nil {
				err = m.Options.Apply(&req, e.Context, e.Tokenizer.VocabSize())
			}
			var res *engine.Result
			if err == nil {
				res, err = sess.Generate(ctx, req, func(ev engine.Event) error {
					out := Message{Type: TypeToken, ID: m.ID, Text: ev.Text, Reasoning: ev.Reasoning}
					if ev.Token >= 0 {
						out.Token = &ev.Token
					}
					return b.send(out)
				})
			}
			switch {
			case res != nil && (err == nil || ctx.Err() != nil):
				st := wire.StatsOf(res.Stats)
				b.send(Message{Type: TypeDone, ID: m.ID, Stats: &st})
			default:
				b.send(Message{Type: TypeError, ID: m.ID, Status: 400, Error: err.Error()})
			}
			cancel()
		}
	}()
	go func() { // the tab's socket
		defer func() { close(b.jobs); wg.Wait(); e.Close() }()
		for {
			var m Message
			if err := c.ReadJSON(&m); err != nil {
				return
			}
			b.mu.Lock()
			b.received = append(b.received, m)
			cancel := b.cancels[m.ID]
			b.mu.Unlock()
			switch m.Type {
			case TypeGenerate:
				b.jobs <- m
			case TypeCancel:
				if cancel != nil {
					cancel()
				}
			}
		}
	}()
	return b
}

func (b *browserStandIn) send(m Message) error {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	return b.c.WriteJSON(m)
}

func (b *browserStandIn) got(typ string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, m := range b.received {
		if m.Type == typ {
			n++
		}
	}
	return n
}

// A driver's requests for a registered browser model are relayed to the
// browser and its answer relayed back, over the WebSocket and the HTTP
// API alike; cancel reaches the browser; a browser that leaves fails its
// requests and its model is gone.
func TestServeRelayToBrowserEngine(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, plain) // the server's own model too
	b := startBrowser(t, ts, plain, "browser-tiny")

	cl := dialClient(t, ts)
	models, err := cl.Models(context.Background())
	if err != nil || len(models) != 2 || models[1].ID != "browser-tiny" || models[1].OwnedBy != "browser" {
		t.Fatalf("models %+v %v", models, err)
	}
	req := Message{Model: "browser-tiny", Prompt: "Once upon a time", Raw: true, Options: &Options{MaxTokens: ptr(8), Temperature: ptr(0.0), IgnoreEOS: ptr(true)}}
	var relayed strings.Builder
	st, err := cl.Generate(context.Background(), req, func(m Message) { relayed.WriteString(m.Text) })
	if err != nil || st.GeneratedTokens != 8 || st.StopReason != "length" {
		t.Fatalf("relayed: %+v %v", st, err)
	}
	// The same request on the server's own copy of the model.
	req.Model = ""
	var local strings.Builder
	if _, err := cl.Generate(context.Background(), req, func(m Message) { local.WriteString(m.Text) }); err != nil {
		t.Fatal(err)
	}
	if relayed.String() != local.String() || b.got(TypeGenerate) != 1 {
		t.Fatalf("relayed %q, local %q, browser saw %d requests", relayed.String(), local.String(), b.got(TypeGenerate))
	}
	// Through the OpenAI API.
	status, out := ts.post(t, "/v1/completions", map[string]any{"model": "browser-tiny", "prompt": "Once upon a time", "max_tokens": 8, "temperature": 0, "ignore_eos": true})
	if status != 200 || *decode[chatResp](t, out).Choices[0].Text != relayed.String() {
		t.Fatalf("HTTP relay: %d %s", status, out)
	}
	// Bad options are refused before they reach the browser.
	if status, _ := ts.post(t, "/v1/completions", map[string]any{"model": "browser-tiny", "prompt": "x", "top_p": 0}); status != 400 || b.got(TypeGenerate) != 2 {
		t.Fatalf("bad options: status %d, browser saw %d", status, b.got(TypeGenerate))
	}
	// Cancel is relayed.
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan struct{})
	var once sync.Once
	done := make(chan *GenStats, 1)
	go func() {
		st, err := cl.Generate(ctx, Message{Model: "browser-tiny", Prompt: "Once", Raw: true, Options: &Options{MaxTokens: ptr(500), IgnoreEOS: ptr(true)}},
			func(Message) { once.Do(func() { close(first) }) })
		if err != nil {
			t.Error(err)
		}
		done <- st
	}()
	<-first
	cancel()
	if st := <-done; st == nil || st.StopReason != "cancelled" {
		t.Fatalf("relayed cancel: %+v", st)
	}
	waitFor(t, "the browser to get the cancel", 5*time.Second, func() bool { return b.got(TypeCancel) == 1 })
	// Registering a name that is taken is refused.
	other := dialRaw(t, ts, nil)
	other.WriteJSON(Message{Type: TypeRegister, ID: "r2", Models: []ModelInfo{{ID: "tiny-llama"}}})
	if m := readUntil(t, other, func(m Message) bool { return m.ID == "r2" }); m[len(m)-1].Status != 409 {
		t.Fatalf("duplicate register: %+v", m[len(m)-1])
	}
	// The browser leaves mid-request.
	first = make(chan struct{})
	once = sync.Once{}
	errc := make(chan error, 1)
	go func() {
		_, err := cl.Generate(context.Background(), Message{Model: "browser-tiny", Prompt: "Once", Raw: true, Options: &Options{MaxTokens: ptr(500), IgnoreEOS: ptr(true)}},
			func(Message) { once.Do(func() { close(first) }) })
		errc <- err
	}()
	<-first
	b.c.Close()
	if re, ok := (<-errc).(*RemoteError); !ok || re.Status != 502 {
		t.Fatalf("browser gone: %v", re)
	}
	waitFor(t, "the browser model to go", 5*time.Second, func() bool { return len(ts.models()) == 1 })
}
