package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

const tokenizeVocabDir = "../../../shared/vocab"

// tokenizeVocabs lists the vocabulary-only GGUFs that ship with ../shared.
func tokenizeVocabs(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(tokenizeVocabDir, "ggml-vocab-*.gguf"))
	if len(files) == 0 {
		t.Skipf("no vocabularies in %s (they come with ../shared)", tokenizeVocabDir)
	}
	return files
}

func tokenizeRun(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	if err := tokenizeCmd(&out, strings.NewReader(stdin), args); err != nil {
		t.Fatalf("tokenize %v: %v", args, err)
	}
	return out.String()
}

// readVocabTests parses llama.cpp's .inp/.out pair beside a vocabulary.
func readVocabTests(t *testing.T, file string) ([]string, []string) {
	t.Helper()
	inp, err := os.ReadFile(file + ".inp")
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(file + ".out")
	if err != nil {
		t.Fatal(err)
	}
	texts := strings.Split(strings.TrimSuffix(string(inp), "\n__ggml_vocab_test__\n"), "\n__ggml_vocab_test__\n")
	ids := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(texts) != len(ids) {
		t.Fatalf("%s: %d texts, %d id lines", file, len(texts), len(ids))
	}
	return texts, ids
}

// pickVectors chooses a few of llama.cpp's test strings (loading a
// vocabulary per run is the slow part): the longest, the one with the most
// whitespace, and one more from the middle.
func pickVectors(texts []string) []int {
	longest, spacey := 0, 0
	ws := func(s string) int { return len(s) - len(strings.Join(strings.Fields(s), "")) }
	for i, s := range texts {
		if len(s) > len(texts[longest]) {
			longest = i
		}
		if ws(s) > ws(texts[spacey]) {
			spacey = i
		}
	}
	return []int{longest, spacey, len(texts) / 2}
}

// TestTokenizeVectors runs the command on every shared vocabulary with some
// of llama.cpp's own test strings, fed on standard input byte for byte and
// as arguments, and expects llama.cpp's ids. --show must list the same ids
// with pieces that put the text back together (SentencePiece adds its
// leading space).
func TestTokenizeVectors(t *testing.T) {
	for _, file := range tokenizeVocabs(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			texts, want := readVocabTests(t, file)
			for k, i := range pickVectors(texts) {
				text := texts[i]
				got := tokenizeRun(t, text, "--model", file, "--no-special")
				if strings.TrimSpace(got) != strings.TrimSpace(want[i]) {
					t.Errorf("%q: got %q, llama.cpp %q", text, strings.TrimSpace(got), strings.TrimSpace(want[i]))
				}
				if k == 2 && text != "" && !strings.HasPrefix(text, "-") {
					if arg := tokenizeRun(t, "", "--no-special", text, "--model", file); arg != got {
						t.Errorf("%q as an argument: %q, from stdin %q", text, arg, got)
					}
				}
				if k == 0 {
					checkShow(t, file, text, strings.Fields(got))
				}
			}
		})
	}
}

func checkShow(t *testing.T, file, text string, ids []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(tokenizeRun(t, text, "--model", file, "--no-special", "--show"), "\n"), "\n")
	if len(lines) != len(ids) {
		t.Fatalf("%q: %d ids but %d --show lines", text, len(ids), len(lines))
	}
	var joined strings.Builder
	for i, l := range lines {
		id, q, ok := strings.Cut(l, "\t")
		if !ok || id != ids[i] {
			t.Fatalf("%q line %d: %q, want id %s", text, i, l, ids[i])
		}
		piece, err := strconv.Unquote(q)
		if err != nil {
			t.Fatalf("%q line %d: piece %s is not quoted: %v", text, i, q, err)
		}
		joined.WriteString(piece)
	}
	want := text
	if strings.Contains(file, "spm") {
		want = " " + text
	}
	if joined.String() != want {
		t.Errorf("%q: pieces join to %q", text, joined.String())
	}
}

// TestTokenizeSpecial checks that control-token text is one token by
// default and plain text with --no-special, and that --bos adds BOS where
// llama.cpp would: the file's add_bos_token, else true for SentencePiece
// and the Llama 3 pre-tokenizer.
func TestTokenizeSpecial(t *testing.T) {
	for _, file := range tokenizeVocabs(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			r, err := gguf.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			tokens, _ := r.Metadata.Strings("tokenizer.ggml.tokens")
			types, _ := r.Metadata.Ints("tokenizer.ggml.token_type")
			bos, hasBOS := r.Metadata.Uint("tokenizer.ggml.bos_token_id")
			addBOS, set := r.Metadata.Bool("tokenizer.ggml.add_bos_token")
			model, _ := r.Metadata.String("tokenizer.ggml.model")
			pre, _ := r.Metadata.String("tokenizer.ggml.pre")
			r.Close()
			if !set {
				addBOS = model == "llama" || pre == "llama-bpe" || pre == "llama3"
			}
			ctl := -1
			for i, ty := range types {
				if ty == 3 && len(tokens[i]) > 3 {
					ctl = i
					break
				}
			}
			if ctl < 0 {
				t.Fatalf("no control token")
			}
			text := "x" + tokens[ctl] + "y"
			special := strings.Fields(tokenizeRun(t, "", "--model", file, text))
			if !containsField(special, strconv.Itoa(ctl)) {
				t.Errorf("%q gave %v, want control token %d among them", text, special, ctl)
			}
			plain := strings.Fields(tokenizeRun(t, "", "--model", file, "--no-special", text))
			if containsField(plain, strconv.Itoa(ctl)) || len(plain) <= len(special) {
				t.Errorf("%q with --no-special gave %v (with specials %v)", text, plain, special)
			}
			withBOS := strings.Fields(tokenizeRun(t, "", "--model", file, "--bos", text))
			if hasBOS && addBOS {
				if len(withBOS) != len(special)+1 || withBOS[0] != strconv.Itoa(int(bos)) {
					t.Errorf("--bos gave %v, without %v (bos %d)", withBOS, special, bos)
				}
			} else if len(withBOS) != len(special) {
				t.Errorf("--bos added tokens although the vocabulary does not ask: %v vs %v", withBOS, special)
			}
		})
	}
}

func containsField(fields []string, s string) bool {
	for _, f := range fields {
		if f == s {
			return true
		}
	}
	return false
}

func TestTokenizeErrors(t *testing.T) {
	var out bytes.Buffer
	if err := tokenizeCmd(&out, strings.NewReader(""), []string{"hello"}); err == nil || !strings.Contains(err.Error(), "--model") {
		t.Errorf("no --model: %v", err)
	}
	if err := tokenizeCmd(&out, strings.NewReader(""), []string{"--model", filepath.Join(t.TempDir(), "none.gguf"), "x"}); err == nil {
		t.Error("missing file: no error")
	}
	bad := filepath.Join(t.TempDir(), "bad.gguf")
	os.WriteFile(bad, []byte("GGUF not really"), 0o644)
	if err := tokenizeCmd(&out, strings.NewReader(""), []string{"--model", bad, "x"}); err == nil {
		t.Error("corrupt file: no error")
	}
	// A valid GGUF without a vocabulary.
	novocab := filepath.Join(t.TempDir(), "novocab.gguf")
	w := gguf.NewWriter()
	w.Metadata.Set("general.architecture", gguf.ValStr("llama"))
	f, _ := os.Create(novocab)
	w.WriteTo(f)
	f.Close()
	if err := tokenizeCmd(&out, strings.NewReader(""), []string{"--model", novocab, "x"}); err == nil || !strings.Contains(err.Error(), "tokenizer.ggml.model") {
		t.Errorf("no vocabulary: %v", err)
	}
}
