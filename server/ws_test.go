package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func dialRaw(t testing.TB, ts *testServer, h http.Header) *websocket.Conn {
	t.Helper()
	c, resp, err := websocket.DefaultDialer.Dial(ts.wsURL(), h)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial: %v (status %d)", err, status)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// readUntil reads messages until one satisfies stop, returning them all.
func readUntil(t testing.TB, c *websocket.Conn, stop func(Message) bool) []Message {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(15 * time.Second))
	var out []Message
	for {
		var m Message
		if err := c.ReadJSON(&m); err != nil {
			t.Fatalf("reading: %v (after %d messages)", err, len(out))
		}
		out = append(out, m)
		if stop(m) {
			return out
		}
	}
}

func dialClient(t testing.TB, ts *testServer) *Client {
	t.Helper()
	cl, err := Dial(context.Background(), ts.wsURL(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// A generate request streams token events carrying text and ids, then
// done with stats; the text equals the HTTP API's for the same request.
func TestServeWebSocketGenerate(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, plain)
	c := dialRaw(t, ts, nil)
	first := readUntil(t, c, func(Message) bool { return true })[0]
	if first.Type != TypeProgress || first.Progress.State != "ready" || first.Progress.Loaded != first.Progress.Total || first.Progress.Total == 0 {
		t.Fatalf("the first message is not the model's ready progress: %+v", first)
	}
	c.WriteJSON(Message{Type: TypeGenerate, ID: "a", Prompt: "Once upon a time", Raw: true, Options: &Options{MaxTokens: ptr(10), Temperature: ptr(0.0), IgnoreEOS: ptr(true)}})
	msgs := readUntil(t, c, func(m Message) bool { return m.Type == TypeDone || m.Type == TypeError })
	var text strings.Builder
	tokens := 0
	for _, m := range msgs[:len(msgs)-1] {
		// The load's last broadcast can reach a connection made as the
		// load ends after its on-connect progress: progress events may come
		// at any time (docs/protocol.md), and say nothing of the request.
		if m.Type == TypeProgress {
			continue
		}
		if m.Type != TypeToken || m.ID != "a" {
			t.Fatalf("unexpected message %+v", m)
		}
		if m.Token != nil {
			tokens++
		}
		text.WriteString(m.Text)
	}
	done := msgs[len(msgs)-1]
	if done.Type != TypeDone || done.ID != "a" || done.Stats == nil || done.Stats.GeneratedTokens != 10 || tokens != 10 || done.Stats.StopReason != "length" || done.Stats.PromptTokens == 0 {
		t.Fatalf("done %+v stats %+v after %d tokens", done, done.Stats, tokens)
	}
	_, out := ts.post(t, "/v1/completions", map[string]any{"prompt": "Once upon a time", "max_tokens": 10, "temperature": 0, "ignore_eos": true})
	if want := *decode[chatResp](t, out).Choices[0].Text; text.String() != want {
		t.Fatalf("websocket text %q, HTTP %q", text.String(), want)
	}

	// models and stats
	c.WriteJSON(Message{Type: TypeModels, ID: "m"})
	m := readUntil(t, c, func(m Message) bool { return m.ID == "m" })
	if got := m[len(m)-1]; got.Type != TypeModels || len(got.Models) != 1 || got.Models[0].ID != "tiny-llama" {
		t.Fatalf("models: %+v", got)
	}
	c.WriteJSON(Message{Type: TypeStats, ID: "s"})
	m = readUntil(t, c, func(m Message) bool { return m.ID == "s" })
	if st := m[len(m)-1].Server; st == nil || st.Requests != 2 || st.Completed != 2 || st.GeneratedTokens != 20 || st.Parallel != 1 || st.Connections != 1 || st.Model != "tiny-llama" {
		t.Fatalf("stats: %+v", st)
	}
}

// Bad messages get error events with a status and the request's id, and
// the connection stays usable.
func TestServeWebSocketBadMessages(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{MaxBodyBytes: 32 << 10, MaxInflight: 4}, plain)
	c := dialRaw(t, ts, nil)
	readUntil(t, c, func(m Message) bool { return m.Type == TypeProgress })
	cases := []struct {
		raw    string
		id     string
		status int
		says   string
	}{
		{`{"type":"generate","id":"x1","prompt":`, "", 400, "JSON"},
		{`{"type":"generate","id":"x2","prompt":"hi","temperature":1}`, "x2", 400, "temperature"},
		{`{"type":"launch","id":"x3"}`, "x3", 400, "launch"},
		{`{"id":"x4"}`, "x4", 400, "type"},
		{`{"type":"generate","prompt":"hi"}`, "", 400, "id"},
		{`{"type":"generate","id":"x6","prompt":""}`, "x6", 400, "empty"},
		{`{"type":"generate","id":"x7","prompt":"hi","options":{"top_p":2}}`, "x7", 400, "top_p"},
		{`{"type":"generate","id":"x8","prompt":"hi","messages":[{"role":"user","content":"hi"}]}`, "x8", 400, "not both"},
		{`{"type":"generate","id":"x9","messages":[{"role":"robot","content":"hi"}]}`, "x9", 400, "robot"},
		{`{"type":"generate","id":"x10","model":"other","prompt":"hi"}`, "x10", 404, "other"},
		{`{"type":"cancel","id":"x11"}`, "x11", 404, "x11"},
		{`{"type":"generate","id":"x12","prompt":"hi","options":{"max_tokens":-1}}`, "x12", 400, "max_tokens"},
	}
	for _, cs := range cases {
		c.WriteMessage(websocket.TextMessage, []byte(cs.raw))
		m := readUntil(t, c, func(m Message) bool { return m.Type == TypeError })
		e := m[len(m)-1]
		if e.ID != cs.id || e.Status != cs.status || !strings.Contains(e.Error, cs.says) {
			t.Errorf("%s: got %+v, want id %q status %d mentioning %q", cs.raw, e, cs.id, cs.status, cs.says)
		}
	}
	// A duplicate id while the first is in flight, and the in-flight bound.
	long := Message{Type: TypeGenerate, Prompt: "hi", Raw: true, Options: &Options{IgnoreEOS: ptr(true), MaxTokens: ptr(400)}}
	for _, id := range []string{"d", "d"} {
		long.ID = id
		c.WriteJSON(long)
	}
	m := readUntil(t, c, func(m Message) bool { return m.Type == TypeError })
	if e := m[len(m)-1]; e.ID != "d" || e.Status != 400 || !strings.Contains(e.Error, "already") {
		t.Fatalf("duplicate id: %+v", e)
	}
	for i := range 4 {
		long.ID = fmt.Sprint("e", i)
		c.WriteJSON(long)
	}
	m = readUntil(t, c, func(m Message) bool { return m.Type == TypeError })
	if e := m[len(m)-1]; e.Status != 429 {
		t.Fatalf("in-flight bound: %+v", e)
	}
	// An oversized message closes the connection with 1009 (too big).
	c.WriteMessage(websocket.TextMessage, []byte(`{"type":"generate","id":"big","prompt":"`+strings.Repeat("x", 40<<10)+`"}`))
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var err error
	for err == nil {
		var m Message
		err = c.ReadJSON(&m)
	}
	// The close frame may be lost to a TCP reset: the server stops reading
	// with the rest of the message unread.
	var ce *websocket.CloseError
	if errors.As(err, &ce) && ce.Code != websocket.CloseMessageTooBig {
		t.Fatalf("an oversized message: %v, want close 1009", err)
	}
	// The requests of the closed connection were cancelled and the slot
	// is free again.
	waitFor(t, "the slot to be free", 10*time.Second, func() bool { return ts.Stats().Busy == 0 && ts.Stats().Queued == 0 })
}

func TestServeWebSocketOrigin(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Origins: []string{"https://chat.example"}}, plain)
	host := strings.TrimPrefix(ts.url, "http://")
	for origin, ok := range map[string]bool{"": true, "http://" + host: true, "https://chat.example": true, "https://evil.example": false, "http://127.0.0.1:1": false} {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		c, resp, err := websocket.DefaultDialer.Dial(ts.wsURL(), h)
		if ok != (err == nil) {
			t.Errorf("origin %q: err %v, want ok=%v", origin, err, ok)
		}
		if !ok && (resp == nil || resp.StatusCode != 403) {
			t.Errorf("origin %q: want 403", origin)
		}
		if c != nil {
			c.Close()
		}
	}
}

// Cancel stops one request at once and frees its slot, whether it was
// generating or still queued; the other requests carry on.
func TestServeWebSocketCancel(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Parallel: 1}, plain)
	cl := dialClient(t, ts)
	long := Message{Prompt: "Once", Raw: true, Options: &Options{IgnoreEOS: ptr(true), MaxTokens: ptr(500)}}

	ctxA, cancelA := context.WithCancel(context.Background())
	started := make(chan struct{})
	resA := make(chan *GenStats, 1)
	go func() {
		n := 0
		st, err := cl.Generate(ctxA, long, func(Message) {
			if n++; n == 1 {
				close(started)
			}
		})
		if err != nil {
			t.Error(err)
		}
		resA <- st
	}()
	<-started
	// B queues behind A (one slot); cancelling it answers at once.
	ctxB, cancelB := context.WithCancel(context.Background())
	resB := make(chan *GenStats, 1)
	go func() {
		st, err := cl.Generate(ctxB, long, nil)
		if err != nil {
			t.Error(err)
		}
		resB <- st
	}()
	waitFor(t, "B to queue", 5*time.Second, func() bool { return ts.Stats().Queued == 1 })
	cancelB()
	if st := <-resB; st == nil || st.StopReason != "cancelled" || st.GeneratedTokens != 0 {
		t.Fatalf("queued B: %+v", st)
	}
	if ts.Stats().Busy != 1 {
		t.Fatal("A stopped with B")
	}
	t0 := time.Now()
	cancelA()
	st := <-resA
	if st == nil || st.StopReason != "cancelled" || st.GeneratedTokens >= 500 {
		t.Fatalf("A: %+v", st)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Fatalf("cancel took %v", d)
	}
	if s := ts.Stats(); s.Busy != 0 || s.Cancelled != 2 {
		t.Fatalf("after cancels: %+v", s)
	}
	// The slot serves the next request.
	st, err := cl.Generate(context.Background(), Message{Prompt: "Once", Raw: true, Options: &Options{MaxTokens: ptr(4), IgnoreEOS: ptr(true)}}, nil)
	if err != nil || st.GeneratedTokens != 4 {
		t.Fatalf("after cancel: %+v %v", st, err)
	}
}

// A client that goes away mid-stream (HTTP or WebSocket) cancels its
// generation, and the slot serves the next request.
func TestServeDisconnectFreesSlot(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Parallel: 1}, plain)
	body := `{"prompt":"Once","max_tokens":500,"ignore_eos":true,"stream":true}`
	for round := range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		if round == 0 {
			req, _ := http.NewRequestWithContext(ctx, "POST", ts.url+"/v1/completions", strings.NewReader(body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64)
			if _, err := resp.Body.Read(buf); err != nil {
				t.Fatal(err)
			}
			cancel() // closes the connection mid-stream
			resp.Body.Close()
		} else {
			cl, err := Dial(ctx, ts.wsURL(), "")
			if err != nil {
				t.Fatal(err)
			}
			got := make(chan struct{})
			go cl.Generate(ctx, Message{Prompt: "Once", Raw: true, Options: &Options{MaxTokens: ptr(500), IgnoreEOS: ptr(true)}}, func(Message) {
				select {
				case <-got:
				default:
					close(got)
				}
			})
			<-got
			cl.c.Close() // no cancel message: the connection just drops
			cancel()
		}
		waitFor(t, "the cancelled generation to free its slot", 5*time.Second, func() bool {
			s := ts.Stats()
			return s.Busy == 0 && s.Cancelled == int64(round+1)
		})
		if g := ts.Stats().GeneratedTokens; g >= int64(500*(round+1)) {
			t.Fatalf("round %d: the generation ran to the end (%d tokens)", round, g)
		}
	}
	status, out := ts.post(t, "/v1/completions", `{"prompt":"Once","max_tokens":3}`)
	if status != 200 {
		t.Fatalf("after disconnects: %d %s", status, out)
	}
}

func TestServeLoadFailure(t *testing.T) {
	s := New(Config{})
	s.LoadModel("/nonexistent/model.gguf", engineOptions())
	<-s.local.ready
	if p := s.local.progress(); p.State != "failed" || p.Error == "" {
		t.Fatalf("progress %+v", p)
	}
	hs := startHandler(t, s)
	status, out := hs.post(t, "/v1/completions", `{"prompt":"hi"}`)
	var e apiError
	if status != 503 || decodeInto(out, &e) != nil || !strings.Contains(e.Error.Message, "failed to load") {
		t.Fatalf("status %d %s", status, out)
	}
	if err := s.Close(); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}
