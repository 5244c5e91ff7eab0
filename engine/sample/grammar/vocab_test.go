package grammar_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/sample/grammar"
	"github.com/emberllm/ember/engine/tokenizer"
)

const vocabSchema = `{"type":"object","properties":{
  "title":{"type":"string","maxLength":12},
  "year":{"type":"integer","minimum":1900,"maximum":2100},
  "genre":{"enum":["drama","comédie","科幻"]},
  "cast":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string","maxLength":10},"lead":{"type":"boolean"}},"required":["name","lead"],"additionalProperties":false},"maxItems":2}},
  "required":["title","year","genre","cast"],"additionalProperties":false}`

// Real vocabularies (llama.cpp's vocab files in ../shared/vocab): byte-
// level BPE with 128k and 152k tokens and SentencePiece with byte tokens.
// Texts made by drawing uniformly from each step's mask (a model that
// knows nothing) are JSON the schema accepts, every mask is the brute
// force's on a sample of tokens, and a state's first mask is quick.
func TestRealVocabularies(t *testing.T) {
	g, err := grammar.FromJSONSchema([]byte(vocabSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"qwen2", "llama-bpe", "llama-spm"} {
		path := filepath.Join("..", "..", "..", "..", "shared", "vocab", "ggml-vocab-"+name+".gguf")
		if _, err := os.Stat(path); err != nil {
			t.Skip("../shared/vocab is absent")
		}
		r, err := gguf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := tokenizer.FromGGUF(&r.Metadata)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		v := grammar.NewVocab(tok.VocabSize(), tok.TextPiece, tok.EOGs())
		built := time.Since(t0)
		rng := rand.New(rand.NewPCG(1, uint64(len(name))))
		var worst time.Duration
		masks := 0
		for walk := range 3 {
			m, err := grammar.NewMatcher(g, v)
			if err != nil {
				t.Fatal(err)
			}
			text := ""
			for step := 0; step < 300; step++ {
				t1 := time.Now()
				mask, err := m.Allowed()
				if err != nil {
					t.Fatal(err)
				}
				worst = max(worst, time.Since(t1))
				masks++
				var allowed []int32
				for id := range int32(tok.VocabSize()) {
					if mask[id>>6]&(1<<(id&63)) != 0 {
						allowed = append(allowed, id)
					}
				}
				// Brute force on a sample: a token is allowed iff the
				// grammar takes the text with its piece.
				for range 30 {
					id := int32(rng.IntN(tok.VocabSize()))
					on := mask[id>>6]&(1<<(id&63)) != 0
					p := tok.TextPiece(id)
					if p == "" {
						if on != (tok.IsEOG(id) && m.CanEnd()) {
							t.Fatalf("%s: token %d (no text) allowed %v", name, id, on)
						}
						continue
					}
					c, _ := grammar.NewMatcher(g, v)
					want := c.AcceptText(text+p) == nil
					if on != want {
						t.Fatalf("%s after %q: token %d %q allowed %v, brute force %v", name, text, id, p, on, want)
					}
				}
				if len(allowed) == 0 {
					t.Fatalf("%s: nothing allowed after %q", name, text)
				}
				id := allowed[rng.IntN(len(allowed))]
				// Favour ending: a uniform draw rarely closes a string.
				for _, e := range allowed {
					if tok.IsEOG(e) || (len(tok.TextPiece(e)) > 0 && (tok.TextPiece(e)[0] == '"' || tok.TextPiece(e)[0] == '}') && rng.IntN(4) == 0) {
						id = e
						break
					}
				}
				if err := m.Accept(id); err != nil {
					t.Fatal(err)
				}
				if tok.IsEOG(id) {
					break
				}
				text += tok.TextPiece(id)
			}
			if !m.CanEnd() {
				t.Fatalf("%s: walk %d did not finish: %q", name, walk, text)
			}
			if !json.Valid([]byte(text)) {
				t.Fatalf("%s: not JSON: %q", name, text)
			}
			if err := grammar.Validate([]byte(vocabSchema), []byte(text)); err != nil {
				t.Fatalf("%s: %q: %v", name, text, err)
			}
		}
		t.Logf("%s: %d tokens, vocabulary index %v, %d masks, the slowest %v", name, tok.VocabSize(), built, masks, worst)
	}
}
