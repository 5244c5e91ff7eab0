package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

type chatResp struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Message *struct {
			Role             string  `json:"role"`
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
		} `json:"message"`
		Delta *struct {
			Role             string  `json:"role"`
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
		} `json:"delta"`
		Text         *string `json:"text"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *usage `json:"usage"`
}

// streamed is what one SSE stream carried, put together.
type streamed struct {
	content, reasoning, finish string
	usage                      *usage
	chunks                     int
	done                       bool
}

func readStream(t testing.TB, body []byte) streamed {
	t.Helper()
	events, err := sseEvents(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var s streamed
	for i, ev := range events {
		if ev == "[DONE]" {
			if i != len(events)-1 {
				t.Fatalf("[DONE] is not the last event: %q", events)
			}
			s.done = true
			continue
		}
		c := decode[chatResp](t, []byte(ev))
		s.chunks++
		if c.Usage != nil {
			s.usage = c.Usage
		}
		for _, ch := range c.Choices {
			if ch.Delta != nil {
				if ch.Delta.Content != nil {
					s.content += *ch.Delta.Content
				}
				if ch.Delta.ReasoningContent != nil {
					s.reasoning += *ch.Delta.ReasoningContent
				}
			}
			if ch.Text != nil {
				s.content += *ch.Text
			}
			if ch.FinishReason != nil {
				s.finish = *ch.FinishReason
			}
		}
	}
	return s
}

// A streamed answer is the same text as the whole one, and both report
// usage that adds up.
func TestServeChatStreamMatchesWhole(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Parallel: 2}, plain)
	body := map[string]any{
		"model":       "tiny-llama",
		"messages":    []map[string]any{{"role": "system", "content": "Be brief."}, {"role": "user", "content": []map[string]string{{"type": "text", "text": "Tell me "}, {"type": "text", "text": "a story"}}}},
		"max_tokens":  12,
		"temperature": 0,
	}
	status, out := ts.post(t, "/v1/chat/completions", body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, out)
	}
	whole := decode[chatResp](t, out)
	if whole.Object != "chat.completion" || whole.Model != "tiny-llama" || !strings.HasPrefix(whole.ID, "chatcmpl-") || len(whole.Choices) != 1 {
		t.Fatalf("bad response: %s", out)
	}
	msg := whole.Choices[0].Message
	if msg == nil || msg.Role != "assistant" || msg.Content == nil || msg.ReasoningContent != nil {
		t.Fatalf("bad message: %s", out)
	}
	u := whole.Usage
	if u == nil || u.PromptTokens <= 0 || u.CompletionTokens <= 0 || u.CompletionTokens > 12 || u.TotalTokens != u.PromptTokens+u.CompletionTokens {
		t.Fatalf("bad usage: %s", out)
	}
	if fr := *whole.Choices[0].FinishReason; (fr == "length") != (u.CompletionTokens == 12) {
		t.Fatalf("finish_reason %q with %d tokens", fr, u.CompletionTokens)
	}

	body["stream"] = true
	body["stream_options"] = map[string]bool{"include_usage": true}
	status, out = ts.post(t, "/v1/chat/completions", body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, out)
	}
	s := readStream(t, out)
	if !s.done || s.content != *msg.Content || s.finish != *whole.Choices[0].FinishReason {
		t.Fatalf("stream %+v differs from the whole answer %q", s, *msg.Content)
	}
	if s.usage == nil || *s.usage != *u {
		t.Fatalf("stream usage %+v, want %+v", s.usage, u)
	}
}

func TestServeCompletions(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, plain)
	body := map[string]any{"prompt": "Once upon a time", "max_tokens": 10, "temperature": 0, "ignore_eos": true}
	status, out := ts.post(t, "/v1/completions", body)
	if status != 200 {
		t.Fatalf("status %d: %s", status, out)
	}
	whole := decode[chatResp](t, out)
	if whole.Object != "text_completion" || len(whole.Choices) != 1 || whole.Choices[0].Text == nil || *whole.Choices[0].FinishReason != "length" || whole.Usage.CompletionTokens != 10 {
		t.Fatalf("bad completion: %s", out)
	}
	text := *whole.Choices[0].Text
	body["stream"] = true
	status, out = ts.post(t, "/v1/completions", body)
	if s := readStream(t, out); status != 200 || !s.done || s.content != text || s.finish != "length" {
		t.Fatalf("stream %+v (status %d), want %q", s, status, text)
	}
	// A stop string cuts the text before it: take one from the middle of
	// the free answer.
	if len(text) < 6 {
		t.Skipf("answer %q too short to pick a stop string from", text)
	}
	stop := text[len(text)/2 : len(text)/2+2]
	cut := text[:strings.Index(text, stop)]
	delete(body, "stream")
	body["stop"] = []string{stop, "\x00never"}
	status, out = ts.post(t, "/v1/completions", body)
	got := decode[chatResp](t, out)
	if status != 200 || *got.Choices[0].Text != cut || *got.Choices[0].FinishReason != "stop" {
		t.Fatalf("with stop %q: %s, want text %q", stop, out, cut)
	}
	// The same seed gives the same sampled text; the text is the model's.
	body = map[string]any{"prompt": "Once upon a time", "max_tokens": 10, "temperature": 1.0, "top_k": 50, "top_p": 0.9, "min_p": 0.01, "seed": 1234, "presence_penalty": 0.5, "frequency_penalty": 0.2, "repeat_penalty": 1.1}
	_, a := ts.post(t, "/v1/completions", body)
	_, b := ts.post(t, "/v1/completions", body)
	if *decode[chatResp](t, a).Choices[0].Text != *decode[chatResp](t, b).Choices[0].Text {
		t.Fatalf("same seed, different text:\n%s\n%s", a, b)
	}
}

// A thinking model's reasoning comes back apart from its content, whole
// and streamed; with thinking off there is none.
func TestServeReasoningApart(t *testing.T) {
	_, thinking := tinyModels(t)
	ts := startServer(t, Config{}, thinking)
	body := map[string]any{"messages": []map[string]string{{"role": "user", "content": "Why?"}}, "max_tokens": 8, "temperature": 0, "ignore_eos": true}
	status, out := ts.post(t, "/v1/chat/completions", body)
	whole := decode[chatResp](t, out)
	if status != 200 || whole.Choices[0].Message.ReasoningContent == nil || *whole.Choices[0].Message.ReasoningContent == "" {
		t.Fatalf("no reasoning_content: %s", out)
	}
	if c := *whole.Choices[0].Message.Content; strings.Contains(c, *whole.Choices[0].Message.ReasoningContent) && c != "" {
		t.Fatalf("the reasoning is repeated in the content: %s", out)
	}
	body["stream"] = true
	_, out = ts.post(t, "/v1/chat/completions", body)
	s := readStream(t, out)
	if s.reasoning != *whole.Choices[0].Message.ReasoningContent || s.content != *whole.Choices[0].Message.Content {
		t.Fatalf("streamed reasoning %q content %q; whole %s", s.reasoning, s.content, out)
	}
	body["stream"] = false
	body["reasoning_effort"] = "none"
	_, out = ts.post(t, "/v1/chat/completions", body)
	if off := decode[chatResp](t, out); off.Choices[0].Message.ReasoningContent != nil {
		t.Fatalf("reasoning with thinking off: %s", out)
	}
}

func TestServeModels(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, plain)
	resp, err := http.Get(ts.url + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	var list modelList
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if list.Object != "list" || len(list.Data) != 1 || list.Data[0].ID != "tiny-llama" || list.Data[0].Object != "model" {
		t.Fatalf("models: %+v", list)
	}
	for path, want := range map[string]int{"/v1/models/tiny-llama": 200, "/v1/models/nope": 404} {
		resp, err := http.Get(ts.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: status %d, want %d", path, resp.StatusCode, want)
		}
	}
}
