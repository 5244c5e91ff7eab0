package tokenizer

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/emberllm/ember/engine/gguf"
)

// splitWords runs a preset's pre-tokenizer alone.
func splitWords(t *testing.T, pre, text string) []string {
	t.Helper()
	p, err := lookupPreset(pre)
	if err != nil {
		t.Fatal(err)
	}
	cps := decodeCodepoints(text, nil)
	fl := make([]uint8, len(cps))
	for i, c := range cps {
		fl[i] = flagsOf(c)
	}
	ends := p.split(&ptext{cps: cps, fl: fl}, nil, nil)
	var out []string
	s := 0
	for _, e := range ends {
		out = append(out, string(cps[s:e]))
		s = int(e)
	}
	return out
}

// TestPreTokenizerSplits checks the scanners on inputs whose splits follow
// by hand from the regexes (lookahead, case folding, digit groups, marks,
// the deepseek and youtu passes, llama.cpp's default).
func TestPreTokenizerSplits(t *testing.T) {
	cases := []struct {
		pre, text string
		want      []string
	}{
		{"llama3", "Hello  world", []string{"Hello", " ", " world"}},
		{"llama3", "x\n\n  y", []string{"x", "\n\n", " ", " y"}},
		{"llama3", "12345", []string{"123", "45"}},
		{"llama3", "DON'T", []string{"DON", "'T"}},
		{"llama3", "a  \n", []string{"a", "  \n"}},
		{"llama3", "!!!\n\nabc", []string{"!!!\n\n", "abc"}},
		{"llama3", " 123", []string{" ", "123"}},
		{"llama3", "e\u0301x", []string{"e", "\u0301x"}},
		{"glm4", "DON'T 12345", []string{"DON", "'T", " ", "123", "45"}},
		{"qwen2", "12345", []string{"1", "2", "3", "4", "5"}},
		{"qwen35", "e\u0301x 1", []string{"e\u0301x", " ", "1"}},
		{"gpt-2", "Hello  world", []string{"Hello", " ", " world"}},
		{"gpt-2", "DON'T don't", []string{"DON", "'", "T", " don", "'t"}},
		{"gpt-2", "x\n\ny", []string{"x", "\n", "\n", "y"}},
		{"olmo", " 123abc", []string{" 123", "abc"}},
		{"deepseek-coder", "abc123 def", []string{"abc", "1", "2", "3", " def"}},
		{"deepseek-llm", "Hello, 世界 123!  ", []string{"Hello", ",", " ", "世界", " ", "123", "!", "  "}},
		{"youtu", "Hello 世界！don't", []string{"Hello", " ", "世界", "！", "don't"}},
		{"default", "a+b=1234", []string{"a", "+", "b", "=", "123", "4"}},
	}
	for _, c := range cases {
		got := splitWords(t, c.pre, c.text)
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
			t.Errorf("%s %q: got %q, want %q", c.pre, c.text, got, c.want)
		}
	}
}

// TestDecoderStreaming feeds ids one at a time and checks that every chunk
// is valid UTF-8 and that the chunks add up to the pieces joined (control
// tokens left out), for text that byte-level tokens split inside characters.
func TestDecoderStreaming(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, name := range vocabNames {
		tk := loadVocab(t, name)
		for i := 0; i < 40; i++ {
			text := randomText(r, 1+r.IntN(80), nil)
			ids := tk.Encode(text, true, true)
			d := tk.NewDecoder()
			var got, want strings.Builder
			for _, id := range ids {
				chunk := d.Add(id)
				if !utf8.ValidString(chunk) {
					t.Fatalf("%s: chunk %q is not valid UTF-8", name, chunk)
				}
				got.WriteString(chunk)
				if !tk.IsControl(id) {
					want.WriteString(tk.Piece(id))
				}
			}
			got.WriteString(d.Flush())
			if got.String() != strings.ToValidUTF8(want.String(), "\uFFFD") {
				t.Errorf("%s %q: stream %q, pieces %q", name, text, got.String(), want.String())
			}
		}
	}
}

// TestDecoderHoldsBack splits "é🦙" into single-byte pieces by hand.
func TestDecoderHoldsBack(t *testing.T) {
	tk := loadVocab(t, "llama-spm")
	byteTok := func(b byte) int32 { id, _ := tk.TokenID(fmt.Sprintf("<0x%02X>", b)); return id }
	d := tk.NewDecoder()
	var out []string
	for _, b := range []byte("é🦙") {
		out = append(out, d.Add(byteTok(b)))
	}
	want := []string{"", "é", "", "", "", "🦙"}
	if fmt.Sprintf("%q", out) != fmt.Sprintf("%q", want) {
		t.Errorf("chunks %q, want %q", out, want)
	}
	// A lead byte that never completes comes out as U+FFFD on Flush, and
	// a stray continuation byte at once.
	if s := d.Add(byteTok(0xE2)); s != "" {
		t.Errorf("incomplete lead byte gave %q", s)
	}
	if s := d.Flush(); s != "\uFFFD" {
		t.Errorf("Flush gave %q", s)
	}
	if s := d.Add(byteTok(0x80)); s != "\uFFFD" {
		t.Errorf("stray continuation byte gave %q", s)
	}
	if s := d.Add(byteTok(0xE2)) + d.Add(byteTok('a')); s != "\uFFFDa" {
		t.Errorf("broken sequence gave %q", s)
	}
}

// TestSPMWordsMatchWholeRun checks the word-level SentencePiece shortcut
// against the plain algorithm over the whole text.
func TestSPMWordsMatchWholeRun(t *testing.T) {
	tk := loadVocab(t, "llama-spm")
	if !tk.spmWords {
		t.Fatal("the Llama 2 vocabulary should allow word-level merging")
	}
	r := rand.New(rand.NewPCG(8, 9))
	st := &scratch{}
	for i := 0; i < 200; i++ {
		text := []byte(strings.ReplaceAll(" "+randomText(r, 1+r.IntN(150), nil), " ", "▁"))
		if i%10 == 0 {
			text = append(text, randomBytes(r, 20)...)
		}
		words := tk.spm(text, st, nil)
		whole := tk.spmRun(text, &scratch{}, nil)
		if !equalIDs(words, whole) {
			t.Fatalf("%q: words %v, whole %v", text, words, whole)
		}
	}
}

// TestEncodeAddSpecial checks BOS/EOS against each file's keys and
// llama.cpp's defaults.
func TestEncodeAddSpecial(t *testing.T) {
	for _, name := range vocabNames {
		tk := loadVocab(t, name)
		md := mdCache[name]
		plain := tk.Encode("hello world", false, false)
		with := tk.Encode("hello world", true, false)
		add, set := md.Bool("tokenizer.ggml.add_bos_token")
		if !set {
			add = tk.Model() == ModelSPM || tk.Pre() == "llama-bpe"
		}
		bos, _ := md.Uint("tokenizer.ggml.bos_token_id")
		switch {
		case add && (len(with) != len(plain)+1 || with[0] != int32(bos) || !equalIDs(with[1:], plain)):
			t.Errorf("%s: with BOS %v, without %v", name, with, plain)
		case !add && !equalIDs(with, plain):
			t.Errorf("%s: BOS added although not asked: %v", name, with)
		}
		if tk.AddBOS() != add {
			t.Errorf("%s: AddBOS %v, want %v", name, tk.AddBOS(), add)
		}
	}
}

// TestConcurrentEncode shares one tokenizer between goroutines (the word
// caches live in per-call scratch space).
func TestConcurrentEncode(t *testing.T) {
	tk := loadVocab(t, "qwen2")
	r := rand.New(rand.NewPCG(1, 1))
	texts := make([]string, 20)
	want := make([][]int32, len(texts))
	for i := range texts {
		texts[i] = englishText(r, 3000)
		want[i] = tk.Encode(texts[i], false, true)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				i := (g + k) % len(texts)
				if got := tk.Encode(texts[i], false, true); !equalIDs(got, want[i]) {
					t.Errorf("goroutine %d: text %d differs", g, i)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// vocabMD builds a small metadata set for error cases.
func vocabMD(model, pre string) *gguf.Metadata {
	md := &gguf.Metadata{}
	md.Set("tokenizer.ggml.model", gguf.ValStr(model))
	if pre != "" {
		md.Set("tokenizer.ggml.pre", gguf.ValStr(pre))
	}
	md.Set("tokenizer.ggml.tokens", gguf.ValStrs([]string{"a", "b", "ab"}))
	md.Set("tokenizer.ggml.merges", gguf.ValStrs([]string{"a b"}))
	return md
}

func TestLoadErrors(t *testing.T) {
	if _, err := FromGGUF(nil); err == nil {
		t.Error("nil metadata accepted")
	}
	if _, err := FromGGUF(&gguf.Metadata{}); err == nil || !strings.Contains(err.Error(), "tokenizer.ggml.model") {
		t.Errorf("no model: %v", err)
	}
	if _, err := FromGGUF(vocabMD("bert", "")); err == nil || !strings.Contains(err.Error(), "bert") {
		t.Errorf("bert: %v", err)
	}
	_, err := FromGGUF(vocabMD("gpt2", "no-such-pre"))
	if err == nil || !strings.Contains(err.Error(), "no-such-pre") || !strings.Contains(err.Error(), "qwen2") {
		t.Errorf("unknown pre: %v", err)
	}
	md := vocabMD("gpt2", "gpt-2")
	md.Delete("tokenizer.ggml.merges")
	if _, err := FromGGUF(md); err == nil || !strings.Contains(err.Error(), "merges") {
		t.Errorf("no merges: %v", err)
	}
	md = vocabMD("gpt2", "gpt-2")
	md.Set("tokenizer.ggml.tokens", gguf.ValStrs([]string{"a", "b", "a"}))
	if _, err := FromGGUF(md); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("duplicate token: %v", err)
	}
	md = vocabMD("llama", "")
	md.Set("tokenizer.ggml.scores", gguf.ValF32s([]float32{1}))
	if _, err := FromGGUF(md); err == nil || !strings.Contains(err.Error(), "scores") {
		t.Errorf("short scores: %v", err)
	}
	md = vocabMD("llama", "")
	md.Set("tokenizer.ggml.tokens", gguf.ValStrs(nil))
	if _, err := FromGGUF(md); err == nil {
		t.Error("empty vocabulary accepted")
	}
	// A missing pre falls back to llama.cpp's default regexes.
	tk, err := FromGGUF(vocabMD("gpt2", ""))
	if err != nil {
		t.Fatal(err)
	}
	if got := tk.Encode("ab", false, false); !equalIDs(got, []int32{2}) {
		t.Errorf("tiny vocabulary: %v", got)
	}
	// Out-of-range ids are harmless.
	if tk.Piece(-1) != "" || tk.Piece(99) != "" || tk.IsEOG(99) || tk.IsControl(-5) || tk.Decode([]int32{-1, 99}) != "" {
		t.Error("out-of-range ids were not ignored")
	}
}

// TestUnicodeTables checks the category table against a few codepoints
// whose llama.cpp categories are known, including Unicode 15.1 additions.
func TestUnicodeTables(t *testing.T) {
	cases := []struct {
		c   rune
		cat uint8
		ws  bool
	}{
		{'a', catLetter, false}, {'7', catNumber, false}, {' ', catSeparator, true}, {'\n', catControl, true},
		{0x85, catControl, true}, {0xA0, catSeparator, true}, {0x3000, catSeparator, true}, {0x301, catMark, false},
		{'!', catPunct, false}, {'$', catSymbol, false}, {0x378, catUndef, false}, {0xE000, catControl, false},
		{0x2EBF0, catLetter, false}, {0x2FFC, catSymbol, false}, {0x31EF, catSymbol, false}, {0x200B, catControl, false},
		{0x180E, catControl, false}, {0x1C, catControl, false},
	}
	for _, c := range cases {
		f := flagsOf(c.c)
		if cat(f) != c.cat || isWS(f) != c.ws {
			t.Errorf("U+%04X: category %d ws %v, want %d %v", c.c, cat(f), isWS(f), c.cat, c.ws)
		}
	}
	// llama.cpp's UTF-8 reading: overlong forms and surrogates decode, bad
	// bytes become U+FFFD one at a time.
	got := decodeCodepoints("\xC0\x80\xED\xA0\x80\xFFa\xE2\x82", nil)
	want := []rune{0, 0xD800, 0xFFFD, 'a', 0xFFFD, 0xFFFD}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("decode: %x, want %x", got, want)
	}
}
