package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// 64 clients at once, over every kind of endpoint, on 4 sessions: every
// stream completes, and each carries exactly the answer its own request
// gets when it runs alone (greedy decoding, so the answer is a function of
// the prompt): nothing is mixed between streams.
func TestServe64ConcurrentClients(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Parallel: 4}, plain)
	const clients = 64
	rng := rand.New(rand.NewPCG(42, 7))
	words := []string{"the", "cat", "sat", "on", "a", "mat", "and", "then", "went", "home", "to", "sleep", "under", "bright", "stars"}
	type job struct {
		kind      int // 0 chat stream, 1 completion stream, 2 chat whole, 3 websocket
		prompt    string
		maxTokens int
		ignoreEOS bool
	}
	jobs := make([]job, clients)
	for i := range jobs {
		var b strings.Builder
		fmt.Fprintf(&b, "client %d:", i)
		for range 2 + rng.IntN(12) {
			b.WriteString(" " + words[rng.IntN(len(words))])
		}
		jobs[i] = job{kind: i % 4, prompt: b.String(), maxTokens: 4 + rng.IntN(13), ignoreEOS: rng.IntN(2) == 0}
	}
	run := func(j job) (string, error) {
		opts := map[string]any{"max_tokens": j.maxTokens, "temperature": 0, "ignore_eos": j.ignoreEOS}
		switch j.kind {
		case 0, 2:
			body := map[string]any{"messages": []map[string]string{{"role": "user", "content": j.prompt}}, "stream": j.kind == 0}
			for k, v := range opts {
				body[k] = v
			}
			status, out := ts.post(t, "/v1/chat/completions", body)
			if status != 200 {
				return "", fmt.Errorf("status %d: %s", status, out)
			}
			if j.kind == 2 {
				return *decode[chatResp](t, out).Choices[0].Message.Content, nil
			}
			s := readStream(t, out)
			if !s.done || s.finish == "" {
				return "", fmt.Errorf("incomplete stream: %+v", s)
			}
			return s.content, nil
		case 1:
			body := map[string]any{"prompt": j.prompt, "stream": true}
			for k, v := range opts {
				body[k] = v
			}
			status, out := ts.post(t, "/v1/completions", body)
			s := readStream(t, out)
			if status != 200 || !s.done || s.finish == "" {
				return "", fmt.Errorf("status %d, incomplete stream: %+v", status, s)
			}
			return s.content, nil
		}
		cl, err := Dial(context.Background(), ts.wsURL(), "")
		if err != nil {
			return "", err
		}
		defer cl.Close()
		var text strings.Builder
		n := 0
		st, err := cl.Generate(context.Background(), Message{Messages: []WireMessage{{Role: "user", Content: j.prompt}},
			Options: &Options{MaxTokens: &j.maxTokens, Temperature: ptr(0.0), IgnoreEOS: &j.ignoreEOS}}, func(m Message) {
			text.WriteString(m.Text)
			if m.Token != nil {
				n++
			}
		})
		if err != nil {
			return "", err
		}
		if st.GeneratedTokens != n {
			return "", fmt.Errorf("done says %d tokens, %d token events came", st.GeneratedTokens, n)
		}
		return text.String(), nil
	}
	got := make([]string, clients)
	errs := make([]error, clients)
	var wg sync.WaitGroup
	start := make(chan struct{})
	t0 := time.Now()
	for i := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			got[i], errs[i] = run(jobs[i])
		}()
	}
	close(start)
	wg.Wait()
	t.Logf("64 concurrent requests in %v", time.Since(t0))
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d (kind %d): %v", i, jobs[i].kind, err)
		}
	}
	if s := ts.Stats(); s.Busy != 0 || s.Queued != 0 || s.Completed != clients {
		t.Fatalf("after the burst: %+v", s)
	}
	// Each answer again, alone, over the whole-answer chat or completion
	// endpoint.
	for i, j := range jobs {
		alone := j
		if j.kind != 1 {
			alone.kind = 2
		} else {
			alone.kind = 1
		}
		want, err := run(alone)
		if err != nil {
			t.Fatal(err)
		}
		if got[i] != want {
			t.Fatalf("client %d (kind %d) got %q, alone %q", i, j.kind, got[i], want)
		}
	}
}
