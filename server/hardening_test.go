package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/gorilla/websocket"
)

// serveReal runs s with Serve on a loopback port, as ember serve does
// (the timeouts live there, not in Handler).
func serveReal(t testing.TB, s *Server) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return &testServer{Server: s, url: "http://" + ln.Addr().String()}
}

func loadedServer(t testing.TB, cfg Config, model string) *Server {
	t.Helper()
	s := New(cfg)
	s.LoadModel(model, engineOptions())
	if err := s.WaitModel(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// A request whose body stalls after its headers is answered 408 and its
// connection closed once the read timeout passes; so is one whose headers
// stall. Neither holds the server.
func TestServeStalledRequests(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := serveReal(t, loadedServer(t, Config{ReadTimeout: 300 * time.Millisecond}, plain))
	addr := strings.TrimPrefix(ts.url, "http://")
	for _, c := range []struct {
		name, sent string
		want       string // the start of the answer; "" means the connection just closes
	}{
		{"body", "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"prompt\":", "HTTP/1.1 408"},
		{"headers", "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-", ""},
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		io.WriteString(conn, c.sent)
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, err := io.ReadAll(conn)
		conn.Close()
		if err != nil {
			t.Fatalf("%s: the server held the connection: %v", c.name, err)
		}
		if d := time.Since(t0); d > 3*time.Second || !strings.HasPrefix(string(got), c.want) {
			t.Fatalf("%s: after %v: %q, want %q", c.name, d, got, c.want)
		}
		if c.want != "" && !strings.Contains(string(got), "did not arrive") {
			t.Fatalf("%s: %q", c.name, got)
		}
	}
	if status, out := ts.post(t, "/v1/completions", `{"prompt":"hi","max_tokens":2}`); status != 200 {
		t.Fatalf("after the stalls: %d %s", status, out)
	}
}

// A WebSocket that sends nothing, pongs included, for the idle timeout is
// closed, as is one that stalls inside a frame; one whose client answers
// the server's pings stays open past it.
func TestServeWebSocketIdle(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := serveReal(t, loadedServer(t, Config{IdleTimeout: 400 * time.Millisecond}, plain))
	wsURL := "ws" + strings.TrimPrefix(ts.url, "http") + "/ws"
	// Silent: never reads, so never answers a ping.
	silent, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	// Stalled mid-frame: a text frame announced as 100 bytes, 10 sent.
	stalled, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	stalled.NetConn().Write([]byte{0x81, 0x80 | 100, 1, 2, 3, 4, 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'})
	// Alive: the Client reads, so gorilla answers every ping.
	alive, err := Dial(context.Background(), wsURL, "")
	if err != nil {
		t.Fatal(err)
	}
	defer alive.Close()
	waitFor(t, "the idle connections to close", 5*time.Second, func() bool { return ts.Stats().Connections == 1 })
	time.Sleep(600 * time.Millisecond) // past the timeout again
	st, err := alive.Generate(context.Background(), Message{Prompt: "Once", Raw: true, Options: &Options{MaxTokens: ptr(3), IgnoreEOS: ptr(true)}}, nil)
	if err != nil || st.GeneratedTokens != 3 {
		t.Fatalf("the live connection: %+v %v", st, err)
	}
	for _, c := range []*websocket.Conn{silent, stalled} {
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					t.Fatal("the server kept an idle connection open")
				}
				break
			}
		}
	}
}

// A message over the limit closes the connection with 1009 every time,
// however large it is: the server reads and drops the rest of it before
// closing, so the close frame is never lost to a reset.
func TestServeWebSocketTooBig(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{MaxBodyBytes: 16 << 10}, plain)
	for i, size := range []int{20 << 10, 256 << 10, 4 << 20, 20 << 10, 4 << 20} {
		c := dialRaw(t, ts, nil)
		readUntil(t, c, func(m Message) bool { return m.Type == TypeProgress })
		big := `{"type":"generate","id":"big","prompt":"` + strings.Repeat("x", size) + `"}`
		c.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if err := c.WriteMessage(websocket.TextMessage, []byte(big)); err != nil {
			t.Fatalf("message %d (%d bytes): the write failed: %v", i, size, err)
		}
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		var err error
		for err == nil {
			_, _, err = c.ReadMessage()
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
			t.Fatalf("message %d (%d bytes): %v, want close 1009", i, size, err)
		}
		c.Close()
	}
}

// Invalid UTF-8 inside a JSON string, and an escaped half of a surrogate
// pair, are refused with 400 rather than turned into U+FFFD; a whole pair
// is a character like any other.
func TestServeInvalidUTF8(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, plain)
	for body, want := range map[string]int{
		"{\"prompt\":\"caf\xe9\",\"max_tokens\":1}":           400,
		"{\"prompt\":\"a\xed\xa0\x80b\",\"max_tokens\":1}":    400, // an encoded surrogate
		`{"prompt":"a\ud800b","max_tokens":1}`:                400,
		`{"prompt":"a\udc00","max_tokens":1}`:                 400,
		`{"prompt":"a\ud800\u0041","max_tokens":1}`:           400,
		`{"prompt":"a\\ud800","max_tokens":1}`:                200, // an escaped backslash, then text
		`{"prompt":"a\ud83d\ude00 caf\u00e9","max_tokens":1}`: 200,
		"{\"prompt\":\"café 😀\",\"max_tokens\":1}":            200,
	} {
		status, out := ts.post(t, "/v1/completions", body)
		if status != want || (want == 400 && !strings.Contains(string(out), "UTF")) {
			t.Errorf("%q: %d %s, want %d", body, status, out, want)
		}
	}
	c := dialRaw(t, ts, nil)
	readUntil(t, c, func(m Message) bool { return m.Type == TypeProgress })
	c.WriteMessage(websocket.TextMessage, []byte("{\"type\":\"generate\",\"id\":\"u\",\"prompt\":\"\xff\"}"))
	m := readUntil(t, c, func(m Message) bool { return m.Type == TypeError })
	if e := m[len(m)-1]; e.Status != 400 || !strings.Contains(e.Error, "UTF-8") {
		t.Fatalf("websocket: %+v", e)
	}
}

// Errors speak JSON, never Go: a wrong type names what the field takes.
func TestServeErrorsNameNoGoTypes(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, plain)
	for body, says := range map[string]string{
		`{"prompt":"hi","max_tokens":1.5}`:    `"max_tokens" must be an integer, not the number 1.5`,
		`{"prompt":"hi","temperature":"hot"}`: `"temperature" must be a number, not a string`,
		`{"prompt":"hi","stream":1}`:          `"stream" must be true or false`,
		`[1,2]`:                               `an object`,
		`{"messages":{"role":"user"}}`:        `"messages" must be an array, not an object`,
		// A number of the right kind that does not fit says so, rather
		// than "must be a number, not the number 1e400".
		`{"prompt":"hi","temperature":1e400}`:               `"temperature": the number 1e400 is out of range`,
		`{"prompt":"hi","max_tokens":99999999999999999999}`: `"max_tokens": the integer 99999999999999999999 is out of range`,
		`{"prompt":"hi","max_tokens":1e3}`:                  `"max_tokens" must be an integer, not the number 1e3`,
	} {
		path := "/v1/completions"
		if strings.Contains(body, "messages") {
			path = "/v1/chat/completions"
		}
		status, out := ts.post(t, path, body)
		msg := decode[apiError](t, out).Error.Message
		if status != 400 || !strings.Contains(msg, says) || strings.Contains(msg, "int") && !strings.Contains(msg, "integer") ||
			strings.Contains(msg, "float") || strings.Contains(msg, "server.") || strings.Contains(msg, "wire.") || strings.Contains(msg, "Go ") {
			t.Errorf("%s: %d %q, want it to say %q", body, status, msg, says)
		}
	}
}

// While the model loads the HTTP API says so (503 with Retry-After, and
// /ready), rather than hold requests; the WebSocket's clients see the
// progress and their requests wait. Once loaded, both answer.
func TestServeLoadingAnswers503(t *testing.T) {
	plain, _ := tinyModels(t)
	s := New(Config{})
	release := make(chan struct{})
	s.LoadModelWith("tiny", func() (string, engine.Options, error) {
		<-release
		return plain, engineOptions(), nil
	})
	ts := startHandler(t, s)
	t.Cleanup(func() { s.Close() })
	req, _ := http.NewRequest("POST", ts.url+"/v1/completions", strings.NewReader(`{"prompt":"hi","max_tokens":2}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(out), "loading") {
		t.Fatalf("while loading: %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), out)
	}
	if r, err := http.Get(ts.url + "/ready"); err != nil || r.StatusCode != 503 {
		t.Fatalf("/ready while loading: %v %v", r, err)
	}
	cl := dialClient(t, ts)
	done := make(chan error, 1)
	go func() {
		_, err := cl.Generate(context.Background(), Message{Prompt: "Once", Raw: true, Options: &Options{MaxTokens: ptr(2), IgnoreEOS: ptr(true)}}, nil)
		done <- err
	}()
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("the WebSocket request made during the load: %v", err)
	}
	if r, err := http.Get(ts.url + "/ready"); err != nil || r.StatusCode != 200 {
		t.Fatalf("/ready once loaded: %v %v", r, err)
	}
	if status, out := ts.post(t, "/v1/completions", `{"prompt":"hi","max_tokens":2}`); status != 200 {
		t.Fatalf("once loaded: %d %s", status, out)
	}
}

// With one session, requests on a connection run in the order they were
// sent, and each one's done event comes before the next one's first
// token, whatever their lengths.
func TestServeParallelOneOrder(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Parallel: 1}, plain)
	c := dialRaw(t, ts, nil)
	readUntil(t, c, func(m Message) bool { return m.Type == TypeProgress })
	lengths := []int{12, 1, 6, 1, 9, 2, 1, 4}
	for i, n := range lengths {
		if err := c.WriteJSON(Message{Type: TypeGenerate, ID: fmt.Sprint("r", i), Prompt: "Once", Raw: true,
			Options: &Options{MaxTokens: ptr(n), IgnoreEOS: ptr(true)}}); err != nil {
			t.Fatal(err)
		}
	}
	next := 0
	msgs := readUntil(t, c, func(m Message) bool { return m.Type == TypeDone && m.ID == fmt.Sprint("r", len(lengths)-1) })
	for _, m := range msgs {
		if m.Type == TypeProgress {
			continue
		}
		want := fmt.Sprint("r", next)
		if m.ID != want {
			t.Fatalf("%s event for %s while %s runs: %+v", m.Type, m.ID, want, msgs)
		}
		if m.Type == TypeDone {
			if m.Stats.GeneratedTokens != lengths[next] {
				t.Fatalf("%s: %+v", m.ID, m.Stats)
			}
			next++
		}
	}
	if next != len(lengths) {
		t.Fatalf("%d done events", next)
	}
}

// SIGTERM's drain: new requests get 503 (and /ready says so) while the
// running ones go on; a generation that ends within the grace period ends
// as usual, and those still running when it is over are cut with proper
// terminators: the stream's last chunk has a finish_reason and [DONE]
// follows, the WebSocket request gets its done event (stop_reason
// "shutdown") and then the connection closes with 1001.
func TestServeDrain(t *testing.T) {
	plain, _ := tinyModels(t)
	s := loadedServer(t, Config{Parallel: 3}, plain)
	s.local.pace = 20 * time.Millisecond
	ts := serveReal(t, s)
	// A long stream, a long WebSocket request, and a short stream that
	// finishes inside the grace period.
	type stream struct {
		events []string
		err    error
	}
	streams := make([]stream, 2)
	var wg sync.WaitGroup
	started := make(chan struct{}, 3)
	for i, n := range []int{500, 10} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"messages":[{"role":"user","content":"hi"}],"max_tokens":%d,"ignore_eos":true,"stream":true}`, n)
			resp, err := http.Post(ts.url+"/v1/chat/completions", "application/json", strings.NewReader(body))
			if err != nil {
				streams[i].err = err
				return
			}
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			first := true
			for sc.Scan() {
				if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
					if first {
						started <- struct{}{}
						first = false
					}
					streams[i].events = append(streams[i].events, line)
				}
			}
			streams[i].err = sc.Err()
		}()
	}
	c, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(ts.url, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.WriteJSON(Message{Type: TypeGenerate, ID: "w", Prompt: "Once", Raw: true, Options: &Options{MaxTokens: ptr(500), IgnoreEOS: ptr(true)}})
	for range 2 {
		<-started
	}
	waitFor(t, "three generations", 5*time.Second, func() bool { return s.Stats().Busy == 3 })

	drained := make(chan error, 1)
	go func() {
		// The grace period: the short stream's 10 tokens at 20 ms are
		// 200 ms; 2 s leaves room for a loaded 2-core machine (700 ms
		// was once too little, with other test binaries running), and
		// is far from the long ones' 10 s.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		drained <- s.Shutdown(ctx)
	}()
	waitFor(t, "the drain to start", 2*time.Second, func() bool { return s.draining.Load() })
	// The listener is closed: new connections are refused. (Requests on a
	// connection made before get 503; the WebSocket's below.)
	if _, err := http.Get(ts.url + "/ready"); err == nil {
		t.Error("a new connection was accepted while draining")
	}
	c.WriteJSON(Message{Type: TypeGenerate, ID: "late", Prompt: "Once", Raw: true})
	var ws []Message
	var closeErr error
	c.SetReadDeadline(time.Now().Add(15 * time.Second))
	for {
		var m Message
		if err := c.ReadJSON(&m); err != nil {
			closeErr = err
			break
		}
		if m.Type != TypeToken && m.Type != TypeProgress {
			ws = append(ws, m)
		}
	}
	if err := <-drained; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown: %v", err)
	}
	wg.Wait()
	var ce *websocket.CloseError
	if !errors.As(closeErr, &ce) || ce.Code != websocket.CloseGoingAway {
		t.Errorf("the WebSocket closed with %v, want 1001", closeErr)
	}
	var late, done *Message
	for i := range ws {
		switch ws[i].ID {
		case "late":
			late = &ws[i]
		case "w":
			done = &ws[i]
		}
	}
	if late == nil || late.Type != TypeError || late.Status != 503 {
		t.Errorf("a request made while draining: %+v", late)
	}
	if done == nil || done.Type != TypeDone || done.Stats.StopReason != "shutdown" || done.Stats.GeneratedTokens == 0 || done.Stats.GeneratedTokens >= 500 {
		t.Errorf("the WebSocket request cut by the drain: %+v", done)
	}
	for i, want := range []string{"length", "length"} {
		ev := streams[i].events
		if streams[i].err != nil || len(ev) < 3 || ev[len(ev)-1] != "[DONE]" || !strings.Contains(ev[len(ev)-2], `"finish_reason":"`+want+`"`) {
			t.Errorf("stream %d: %v, ending %q", i, streams[i].err, ev[max(0, len(ev)-2):])
		}
	}
	// The short stream finished whole: 10 tokens, then its finish.
	if n := strings.Count(strings.Join(streams[1].events, "\n"), `"content":`); n < 5 {
		t.Errorf("the short stream was cut: %d content chunks", n)
	}
	if n := len(streams[0].events); n >= 500 {
		t.Errorf("the long stream ran to its end (%d events)", n)
	}
	if st := s.Stats(); st.Busy != 0 || st.Completed != 1 || st.Cancelled != 2 {
		t.Errorf("after the drain: %+v", st)
	}
}
