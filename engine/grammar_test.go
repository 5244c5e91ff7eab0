package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/engine/sample/grammar"
	"github.com/emberllm/ember/engine/synth"
)

// A small schema with every kind of nesting, bounded everywhere so that a
// random model, which never wants to close anything, still finishes.
const boundedSchema = `{"type":"object","properties":{
  "name":{"type":"string","maxLength":6},
  "kind":{"enum":["cat","dog",3,null]},
  "tags":{"type":"array","items":{"enum":["a","bé"]},"maxItems":3},
  "pos":{"type":"object","properties":{"x":{"type":"integer"},"ok":{"type":"boolean"}},"required":["x","ok"],"additionalProperties":false}},
  "required":["name","kind","pos"],"additionalProperties":false}`

// Constrained decoding on a byte-level BPE vocabulary (the synthetic
// llama's) and a SentencePiece one with byte tokens (stories260K): at
// temperature 1, with and without top-k, every seed's text is JSON the
// schema accepts, ended by the grammar (stop), not by the length limit.
func TestGrammarConstrainedGeneration(t *testing.T) {
	g, err := grammar.FromJSONSchema([]byte(boundedSchema))
	if err != nil {
		t.Fatal(err)
	}
	bpe := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(bpe, "tiny", synth.Llama, "Q8_0", 7); err != nil {
		t.Fatal(err)
	}
	models := map[string]string{"byte-level BPE": bpe}
	if p := filepath.Join("..", "..", "shared", "models", "stories260K.gguf"); fileExists(p) {
		models["SentencePiece"] = p
	}
	for kind, path := range models {
		e, err := Load(path, Options{Threads: 2, Context: 512})
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(3) {
			o := sample.DefaultOptions()
			o.Temperature, o.Seed = 1, seed
			if seed%2 == 0 {
				o.TopK, o.TopP, o.MinP = 0, 1, 0
			}
			res, err := s.Generate(context.Background(), Request{Prompt: "Once upon a time", Raw: true, Sample: o, MaxTokens: 480, Grammar: g}, nil)
			if err != nil {
				t.Fatalf("%s, seed %d: %v", kind, seed, err)
			}
			if res.Stats.StopReason != "stop" || !json.Valid([]byte(res.Text)) {
				t.Fatalf("%s, seed %d: %s after %d tokens: %q", kind, seed, res.Stats.StopReason, len(res.Tokens), res.Text)
			}
			if err := grammar.Validate([]byte(boundedSchema), []byte(res.Text)); err != nil {
				t.Fatalf("%s, seed %d: %q: %v", kind, seed, res.Text, err)
			}
			if seed == 0 {
				t.Logf("%s: %s", kind, res.Text)
			}
		}
		e.Close()
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
