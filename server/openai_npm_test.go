package server

import (
	"encoding/json"
	"testing"
	"time"

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
