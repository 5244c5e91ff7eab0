package tokenizer

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/internal/oracle"
)

// vocabNames are the vocabulary-only GGUFs in ../shared/vocab.
var vocabNames = []string{"llama-bpe", "qwen2", "qwen35", "deepseek-llm", "deepseek-coder", "llama-spm", "gpt-2"}

func vocabPath(t testing.TB, name string) string {
	t.Helper()
	d := oracle.SharedDir()
	if d == "" {
		t.Skip("../shared is absent: no vocabulary files to test against")
	}
	p := filepath.Join(d, "vocab", "ggml-vocab-"+name+".gguf")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("vocabulary %s is absent: %v", p, err)
	}
	return p
}

var (
	vocabMu    sync.Mutex
	vocabCache = map[string]*Tokenizer{}
	mdCache    = map[string]*gguf.Metadata{}
)

// loadVocab opens a shared vocabulary once per test binary.
func loadVocab(t testing.TB, name string) *Tokenizer {
	t.Helper()
	p := vocabPath(t, name)
	vocabMu.Lock()
	defer vocabMu.Unlock()
	if tk, ok := vocabCache[name]; ok {
		return tk
	}
	r, err := gguf.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tk, err := FromGGUF(&r.Metadata)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	vocabCache[name] = tk
	mdCache[name] = &r.Metadata
	return tk
}

// readVectors parses llama.cpp's test files: strings separated by a line
// "__ggml_vocab_test__", and one line of ids per string.
func readVectors(t *testing.T, base string) ([]string, [][]int32) {
	t.Helper()
	inp, err := os.ReadFile(base + ".inp")
	if err != nil {
		t.Fatal(err)
	}
	outp, err := os.ReadFile(base + ".out")
	if err != nil {
		t.Fatal(err)
	}
	const sep = "\n__ggml_vocab_test__\n"
	var texts []string
	for s := string(inp); len(s) > 0; {
		i := strings.Index(s, sep)
		if i < 0 {
			texts = append(texts, s)
			break
		}
		texts = append(texts, s[:i])
		s = s[i+len(sep):]
	}
	lines := strings.Split(strings.TrimSuffix(string(outp), "\n"), "\n")
	if len(lines) != len(texts) {
		t.Fatalf("%s: %d strings but %d id lines", base, len(texts), len(lines))
	}
	ids := make([][]int32, len(lines))
	for i, l := range lines {
		for _, f := range strings.Fields(l) {
			v, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s line %d: %v", base, i+1, err)
			}
			ids[i] = append(ids[i], int32(v))
		}
	}
	return texts, ids
}

// TestVocabVectors checks every vector llama.cpp ships for the shared
// vocabularies, called as test-tokenizer-0 does: add_special=false,
// parse_special=false.
func TestVocabVectors(t *testing.T) {
	for _, name := range vocabNames {
		t.Run(name, func(t *testing.T) {
			tk := loadVocab(t, name)
			texts, want := readVectors(t, vocabPath(t, name))
			for i, text := range texts {
				got := tk.Encode(text, false, false)
				if !equalIDs(got, want[i]) {
					t.Errorf("%q:\n got %v\nwant %v", text, got, want[i])
				}
			}
		})
	}
}

func equalIDs(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
