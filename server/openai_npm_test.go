package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emberllm/ember/engine/sample/grammar"
	"github.com/emberllm/ember/internal/oracle"
)

// The official OpenAI client (the openai npm package), unmodified, against
// a real server: listing models, chat and completions whole and streamed
// with usage, an out-of-range option and a wrong key as the client's
// own error types, and a stream the client abandons, which the server
// cancels.
func TestServeOpenAINodeClient(t *testing.T) {
	if err := oracle.Available(); err != nil {
		t.Skip(err)
	}
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Parallel: 2, APIKey: "npm-key"}, plain)
	raw, err := oracle.Node("openai_client.mjs", ts.url+"/v1", "npm-key", "tiny-llama")
	if err != nil {
		t.Fatal(err)
	}
	type usageJS struct{ Prompt_tokens, Completion_tokens, Total_tokens int }
	var out struct {
		Models []string
		Chat   struct {
			Object, Content, Role, Finish string
			Usage                         usageJS
		}
		ChatStream struct {
			Content, Finish string
			Usage           *usageJS
			Chunks          int
		}
		Completion struct {
			Object, Text, Finish string
			Usage                usageJS
		}
		CompletionStream struct{ Text string }
		BadTemperature   struct {
			Status     int
			Message    string
			IsAPIError bool
		}
		BadKey struct {
			Status int
			IsAuth bool
		}
		Abandoned struct{ Chunks int }
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	t.Logf("%s", raw)
	c := out.Chat
	if len(out.Models) != 1 || out.Models[0] != "tiny-llama" || c.Object != "chat.completion" || c.Role != "assistant" ||
		c.Usage.Completion_tokens == 0 || c.Usage.Total_tokens != c.Usage.Prompt_tokens+c.Usage.Completion_tokens {
		t.Fatalf("models or chat: %s", raw)
	}
	if s := out.ChatStream; s.Content != c.Content || s.Finish != c.Finish || s.Usage == nil || *s.Usage != c.Usage || s.Chunks < 3 {
		t.Fatalf("streamed chat differs from the whole one: %s", raw)
	}
	if p := out.Completion; p.Object != "text_completion" || p.Usage.Completion_tokens == 0 || out.CompletionStream.Text != p.Text {
		t.Fatalf("completions: %s", raw)
	}
	if b := out.BadTemperature; b.Status != 400 || !b.IsAPIError || b.Message == "" {
		t.Fatalf("bad temperature: %s", raw)
	}
	if out.BadKey.Status != 401 || !out.BadKey.IsAuth {
		t.Fatalf("bad key: %s", raw)
	}
	waitFor(t, "the abandoned stream to be cancelled", 10*time.Second, func() bool {
		s := ts.Stats()
		return s.Cancelled == 1 && s.Busy == 0
	})
}

// Structured outputs and tools through the official OpenAI client: a
// schema with nested objects, arrays and enums, answered by a random model
// at temperature 1 for several seeds, parsed by the client (parse()) and
// valid against the schema, streamed as well; required tool calls with
// strict schemas parsed by the client, streamed and put together by it;
// logprobs and n; an ignored field's Warning header.
func TestServeOpenAINodeStructured(t *testing.T) {
	if err := oracle.Available(); err != nil {
		t.Skip(err)
	}
	ts := startServer(t, Config{APIKey: "npm-key"}, templatedModel(t, "Qwen-Qwen3-0.6B"))
	const seeds = 3
	raw, err := oracle.Node("openai_structured.mjs", ts.url+"/v1", "npm-key", "tiny-Qwen-Qwen3-0.6B", personSchema, weatherTools, fmt.Sprint(seeds))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Parsed []struct {
			Content string
			Parsed  json.RawMessage
			Finish  string
		}
		Streamed []struct {
			Parsed json.RawMessage
			Chunks int
		}
		Calls []struct {
			Finish string
			Calls  []struct {
				ID, Name, Arguments string
				Parsed              json.RawMessage
			}
		}
		StreamedCalls  []struct{ Name, Arguments string }
		StreamedFinish string
		Logprobs       struct{ Choices, Entries, Top, Tokens int }
		Warning        string
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	t.Logf("%s", raw)
	if len(out.Parsed) != seeds || len(out.Streamed) != 1 || len(out.Calls) != seeds {
		t.Fatalf("%s", raw)
	}
	for _, p := range append(out.Parsed, struct {
		Content string
		Parsed  json.RawMessage
		Finish  string
	}{string(out.Streamed[0].Parsed), out.Streamed[0].Parsed, "stop"}) {
		if p.Finish != "stop" || string(p.Parsed) == "null" {
			t.Fatalf("not parsed: %+v", p)
		}
		if err := grammar.Validate([]byte(personSchema), p.Parsed); err != nil {
			t.Fatalf("%s: %v", p.Parsed, err)
		}
	}
	schemas := map[string]string{}
	var tools []struct {
		Function struct {
			Name       string
			Parameters json.RawMessage
		}
	}
	json.Unmarshal([]byte(weatherTools), &tools)
	for _, tl := range tools {
		schemas[tl.Function.Name] = string(tl.Function.Parameters)
	}
	for _, c := range out.Calls {
		if c.Finish != "tool_calls" || len(c.Calls) == 0 {
			t.Fatalf("tool calls: %+v", c)
		}
		for _, call := range c.Calls {
			if err := grammar.Validate([]byte(schemas[call.Name]), []byte(call.Arguments)); err != nil || !strings.HasPrefix(call.ID, "call_") {
				t.Fatalf("%+v: %v", call, err)
			}
		}
	}
	if len(out.StreamedCalls) == 0 || out.StreamedFinish != "tool_calls" {
		t.Fatalf("streamed tool calls: %s", raw)
	}
	for _, call := range out.StreamedCalls {
		if err := grammar.Validate([]byte(schemas[call.Name]), []byte(call.Arguments)); err != nil {
			t.Fatalf("streamed %+v: %v", call, err)
		}
	}
	if l := out.Logprobs; l.Choices != 2 || l.Entries == 0 || l.Top != 2 || l.Tokens == 0 {
		t.Fatalf("logprobs: %+v", l)
	}
	if !strings.Contains(out.Warning, "store") || !strings.Contains(out.Warning, "metadata") {
		t.Fatalf("warning %q", out.Warning)
	}
}
