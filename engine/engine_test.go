package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/internal/oracle"
)

func stories(t *testing.T) string {
	t.Helper()
	d := oracle.SharedDir()
	if d == "" {
		t.Skip("../shared is absent: no stories260K model to run")
	}
	return filepath.Join(d, "models", "stories260K.gguf")
}

func greedy() sample.Options {
	o := sample.DefaultOptions()
	o.Temperature = 0
	return o
}

// The continuation ../shared/README.md documents for greedy decoding.
const storiesContinuation = ", there was a little girl named Lily. She loved to play outside in the park. One day, she saw a big, red ball"

func TestStoriesKnownContinuation(t *testing.T) {
	e, err := Load(stories(t), Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, err := e.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Generate(context.Background(), Request{Prompt: "Once upon a time", Raw: true, Sample: greedy(), MaxTokens: 40}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Text, storiesContinuation) {
		t.Fatalf("greedy continuation:\n got %q\nwant %q...", res.Text, storiesContinuation)
	}
}

func TestPromptLongerThanContext(t *testing.T) {
	e, err := Load(stories(t), Options{Threads: 2, Context: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, _ := e.NewSession()
	_, err = s.Generate(context.Background(), Request{Prompt: strings.Repeat("Once upon a time ", 20), Raw: true, Sample: greedy(), MaxTokens: 4}, nil)
	if !errors.Is(err, ErrContextFull) {
		t.Fatalf("want ErrContextFull, got %v", err)
	}
}

// Across turns the common prefix stays in the cache, and the reused cache
// gives the same tokens as a fresh session.
func TestPrefixReuse(t *testing.T) {
	e, err := Load(stories(t), Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, _ := e.NewSession()
	ctx := context.Background()
	first, err := s.Generate(ctx, Request{Prompt: "Once upon a time", Raw: true, Sample: greedy(), MaxTokens: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	second := "Once upon a time" + first.Text + " Then"
	res, err := s.Generate(ctx, Request{Prompt: second, Raw: true, Sample: greedy(), MaxTokens: 12}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.ReusedTokens < 5 {
		t.Fatalf("only %d tokens reused of %d", res.Stats.ReusedTokens, res.Stats.PromptTokens)
	}
	fresh, _ := e.NewSession()
	want, err := fresh.Generate(ctx, Request{Prompt: second, Raw: true, Sample: greedy(), MaxTokens: 12}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != want.Text {
		t.Fatalf("reused cache gave %q, fresh session %q", res.Text, want.Text)
	}
}

func TestCancel(t *testing.T) {
	e, err := Load(stories(t), Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s, _ := e.NewSession()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	res, err := s.Generate(ctx, Request{Prompt: "Once upon a time", Raw: true, Sample: greedy(), MaxTokens: 200}, func(Event) error {
		n++
		if n == 5 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if res == nil || res.Stats.StopReason != "cancelled" || len(res.Tokens) > 6 {
		t.Fatalf("cancel did not stop promptly: %+v", res)
	}
}
