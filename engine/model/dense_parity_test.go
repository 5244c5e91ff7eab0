package model

import (
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/tokenizer"
	"github.com/emberllm/ember/internal/oracle"
)

// TestDenseGreedyParity: tiny llama and qwen3 models give llama.cpp's 64
// greedy tokens: every weight type once (make test), or every type on
// two prompts (EMBER_PARITY=all, make parity).
func TestDenseGreedyParity(t *testing.T) {
	if err := oracle.Available(); err != nil {
		t.Skip(err)
	}
	compareCases(t, t.TempDir(), parityCases("dense"), 0)
}

// TestStoriesGreedyParity: the real trained model, prompts through
// ember's own tokenizer, llama.cpp's 64 greedy tokens (one prompt, or
// four with EMBER_PARITY=all).
func TestStoriesGreedyParity(t *testing.T) {
	if err := oracle.Available(); err != nil {
		t.Skip(err)
	}
	shared := oracle.SharedDir()
	if shared == "" {
		t.Skip("../shared is absent: no stories260K model")
	}
	path := filepath.Join(shared, "models", "stories260K.gguf")
	r, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenizer.FromGGUF(&r.Metadata)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	texts := oracle.StoriesPrompts[:1]
	if parityAll() {
		texts = oracle.StoriesPrompts
	}
	for _, text := range texts {
		prompt := tok.Encode(text, true, false)
		t.Run(text, func(t *testing.T) {
			compareGreedy(t, []string{"stories260K"}, []string{path}, prompt, 0, nil)
		})
	}
}

// eog reports whether id ends generation in the model's vocabulary.
func eog(t *testing.T, path string, id int32) bool {
	t.Helper()
	r, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tok, err := tokenizer.FromGGUF(&r.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	return tok.IsEOG(id)
}
