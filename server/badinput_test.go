package server

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// Every bad request gets its own 4xx status and an OpenAI error body
// with a message; none panics or hangs the server.
func TestServeBadInputs(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{MaxBodyBytes: 64 << 10, MaxPromptBytes: 8 << 10}, plain)
	msgs := `"messages":[{"role":"user","content":"hi"}]`
	long := strings.Repeat("once upon a time ", 500) // under the byte limit, over the 512-token context
	cases := []struct {
		name, path, body string
		status           int
		says             string
	}{
		{"not JSON", "/v1/chat/completions", `{"messages":`, 400, "JSON"},
		{"garbage", "/v1/chat/completions", `hello`, 400, "JSON"},
		{"empty body", "/v1/chat/completions", ``, 400, "empty"},
		{"two values", "/v1/chat/completions", `{` + msgs + `}{}`, 400, "more than one"},
		{"unknown field", "/v1/chat/completions", `{` + msgs + `,"temprature":0.5}`, 400, "temprature"},
		{"wrong type", "/v1/chat/completions", `{` + msgs + `,"max_tokens":"ten"}`, 400, "max_tokens"},
		{"no messages", "/v1/chat/completions", `{"messages":[]}`, 400, "at least one"},
		{"bad role", "/v1/chat/completions", `{"messages":[{"role":"wizard","content":"hi"}]}`, 400, "wizard"},
		{"image part", "/v1/chat/completions", `{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`, 400, "content"},
		{"temperature high", "/v1/chat/completions", `{` + msgs + `,"temperature":7}`, 400, "temperature"},
		{"temperature negative", "/v1/chat/completions", `{` + msgs + `,"temperature":-1}`, 400, "temperature"},
		{"top_p zero", "/v1/chat/completions", `{` + msgs + `,"top_p":0}`, 400, "top_p"},
		{"top_k negative", "/v1/chat/completions", `{` + msgs + `,"top_k":-3}`, 400, "top_k"},
		{"min_p over 1", "/v1/chat/completions", `{` + msgs + `,"min_p":1.5}`, 400, "min_p"},
		{"presence_penalty", "/v1/chat/completions", `{` + msgs + `,"presence_penalty":9}`, 400, "presence_penalty"},
		{"repeat_penalty zero", "/v1/chat/completions", `{` + msgs + `,"repeat_penalty":0}`, 400, "repeat_penalty"},
		{"max_tokens zero", "/v1/chat/completions", `{` + msgs + `,"max_tokens":0}`, 400, "max_tokens"},
		{"max_tokens huge", "/v1/chat/completions", `{` + msgs + `,"max_tokens":100000000}`, 400, "max_tokens"},
		{"n nine", "/v1/chat/completions", `{` + msgs + `,"n":9}`, 400, "n 9 is outside [1, 8]"},
		{"n zero", "/v1/completions", `{"prompt":"hi","n":0}`, 400, "n 0"},
		{"stop empty", "/v1/chat/completions", `{` + msgs + `,"stop":[""]}`, 400, "stop"},
		{"stop many", "/v1/chat/completions", `{` + msgs + `,"stop":["a","b","c","d","e","f","g","h","i"]}`, 400, "stop"},
		{"stop number", "/v1/chat/completions", `{` + msgs + `,"stop":5}`, 400, "stop"},
		{"unknown model", "/v1/chat/completions", `{"model":"gpt-9",` + msgs + `}`, 404, "gpt-9"},
		{"prompt empty", "/v1/completions", `{"prompt":""}`, 400, "empty"},
		{"prompt two", "/v1/completions", `{"prompt":["a","b"]}`, 400, "prompt"},
		{"prompt too long", "/v1/completions", `{"prompt":"` + strings.Repeat("x", 9<<10) + `"}`, 400, "limit"},
		{"prompt over context", "/v1/completions", `{"prompt":"` + long[:8000] + `","max_tokens":4}`, 400, "context"},
		{"body too big", "/v1/completions", `{"prompt":"` + strings.Repeat("x", 70<<10) + `"}`, 413, "larger"},
	}
	for _, c := range cases {
		status, out := ts.post(t, c.path, c.body)
		var e apiError
		if err := json.Unmarshal(out, &e); err != nil {
			t.Errorf("%s: body is not a JSON error: %q", c.name, out)
			continue
		}
		if status != c.status || !strings.Contains(e.Error.Message, c.says) || e.Error.Type == "" {
			t.Errorf("%s: status %d %q, want %d mentioning %q", c.name, status, e.Error.Message, c.status, c.says)
		}
	}
	// Routes and methods.
	for _, c := range []struct {
		method, path string
		status       int
	}{{"GET", "/v1/chat/completions", 405}, {"DELETE", "/v1/models", 405}, {"GET", "/nope", 404}, {"POST", "/", 405}, {"GET", "/ws", 400}} {
		req, _ := http.NewRequest(c.method, ts.url+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s: status %d, want %d", c.method, c.path, resp.StatusCode, c.status)
		}
	}
	// Random bytes and random mutations of a good body: always a 4xx or a
	// 200, never a 5xx or a hang.
	rng := rand.New(rand.NewPCG(1, 2))
	good := `{"messages":[{"role":"user","content":"hi"}],"max_tokens":2,"temperature":0.5}`
	for i := 0; i < 60; i++ {
		b := []byte(good)
		for range 1 + rng.IntN(4) {
			b[rng.IntN(len(b))] = byte(rng.IntN(128))
		}
		if i%3 == 0 {
			b = b[:rng.IntN(len(b))]
		}
		status, out := ts.post(t, "/v1/chat/completions", b)
		if status >= 500 || (status != 200 && !strings.Contains(string(out), `"message"`)) {
			t.Fatalf("mutated body %q: status %d %s", b, status, out)
		}
	}
}

func TestServeAPIKey(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{APIKey: "sekrit"}, plain)
	body := `{"prompt":"hi","max_tokens":2}`
	for _, c := range []struct {
		header []string
		status int
	}{
		{nil, 401},
		{[]string{"Authorization", "Bearer wrong"}, 401},
		{[]string{"Authorization", "sekrit"}, 200}, // a bare key is accepted too
		{[]string{"Authorization", "Bearer sekrit"}, 200},
	} {
		if status, out := ts.post(t, "/v1/completions", body, c.header...); status != c.status {
			t.Errorf("header %q: status %d %s, want %d", c.header, status, out, c.status)
		}
	}
	// The page and its scripts hold no secret and load without the key
	// (the page asks for it), as do the health probes; every API route
	// wants it, in the Authorization header: a key in the URL (which logs
	// keep) is accepted on the WebSocket only, where browsers cannot set
	// headers.
	for path, want := range map[string]int{"/": 200, "/app.js": 200, "/health": 200, "/ready": 200, "/v1/models": 401, "/v1/models/x": 401,
		"/?key=sekrit": 200, "/v1/models?key=sekrit": 401, "/ws": 401, "/ws?key=wrong": 401} {
		resp, err := http.Get(ts.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: status %d, want %d", path, resp.StatusCode, want)
		}
	}
	req, _ := http.NewRequest("POST", ts.url+"/v1/completions?key=sekrit", strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.Contains(string(out), "on /ws only") {
		t.Errorf("POST with ?key=: %d %s", resp.StatusCode, out)
	}
	c, _, err := websocket.DefaultDialer.Dial(ts.wsURL()+"?key=sekrit", nil)
	if err != nil {
		t.Fatalf("the WebSocket with ?key=: %v", err)
	}
	c.Close()
}
