package tokenizer

import (
	"fmt"
	"sort"
	"strings"
)

// ptext is one text fragment decoded for pre-tokenization: its codepoints
// and their flags. Pieces are contiguous: a split is the list of piece ends.
type ptext struct {
	cps []rune
	fl  []uint8
}

// pass splits the piece [s,e) and appends the ends of its sub-pieces.
type pass func(t *ptext, s, e int, out []int32) []int32

// preset is one value of tokenizer.ggml.pre: the passes llama.cpp applies in
// order (each one re-splitting every piece of the previous one) and the
// vocabulary flags it implies.
type preset struct {
	passes       []pass
	ignoreMerges bool // look a whole word up before merging (llama3, youtu)
	addBOS       bool // default of tokenizer.ggml.add_bos_token
	noBOS        bool // no default BOS id (glm4)
	cleanSpaces  bool // detokenizer removes spaces before punctuation
}

// presets maps every supported tokenizer.ggml.pre value. Aliases share the
// regexes and flags of their family in llama.cpp (llama-vocab.cpp).
var presets = map[string]preset{}

func init() {
	llama3 := []pass{splitLlama3}
	qwen2 := []pass{splitQwen2}
	gpt2 := []pass{splitGPT2}
	for _, n := range []string{"llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2", "jina-v5-nano"} {
		presets[n] = preset{passes: llama3, ignoreMerges: true, addBOS: true, cleanSpaces: true}
	}
	for _, n := range []string{"dbrx", "smaug-bpe"} {
		presets[n] = preset{passes: llama3, cleanSpaces: true}
	}
	for _, n := range []string{"glm4", "chatglm-bpe"} {
		presets[n] = preset{passes: llama3, noBOS: true, cleanSpaces: true}
	}
	for _, n := range []string{"qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "hunyuan", "solar-open", "grok-2"} {
		presets[n] = preset{passes: qwen2}
	}
	for _, n := range []string{"megrez", "stablelm2"} {
		presets[n] = preset{passes: qwen2, cleanSpaces: true}
	}
	presets["qwen35"] = preset{passes: []pass{splitQwen35}}
	presets["deepseek-llm"] = preset{passes: deepseekLLMPasses}
	presets["deepseek-coder"] = preset{passes: deepseekCoderPasses}
	presets["youtu"] = preset{passes: youtuPasses, ignoreMerges: true}
	for _, n := range []string{"gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "a.x-4.0", "mellum", "exaone4", "mpt", "olmo", "jais"} {
		presets[n] = preset{passes: gpt2, cleanSpaces: true}
	}
	for _, n := range []string{"trillion", "granite-docling"} {
		presets[n] = preset{passes: gpt2}
	}
	presets["default"] = preset{passes: defaultPasses, cleanSpaces: true}
}

// PreTokenizers lists the supported tokenizer.ggml.pre values.
func PreTokenizers() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func lookupPreset(name string) (preset, error) {
	if name == "" {
		// llama.cpp warns and falls back to its default regexes when the key
		// is missing; an unknown value, by contrast, is refused.
		name = "default"
	}
	p, ok := presets[name]
	if !ok {
		return preset{}, fmt.Errorf("tokenizer: unknown pre-tokenizer %q (tokenizer.ggml.pre); supported: %s",
			name, strings.Join(PreTokenizers(), ", "))
	}
	return p, nil
}

// split runs the passes over the whole fragment and returns the piece ends.
func (p *preset) split(t *ptext, a, b []int32) []int32 {
	a = append(a[:0], int32(len(t.cps)))
	for _, ps := range p.passes {
		b = b[:0]
		s := 0
		for _, e := range a {
			b = ps(t, s, int(e), b)
			s = int(e)
		}
		a, b = b, a
	}
	return a
}

// Helpers over flags.

func cat(f uint8) uint8     { return f &^ flagWS }
func isWS(f uint8) bool     { return f&flagWS != 0 }
func isNumber(f uint8) bool { return cat(f) == catNumber }
func lowerASCII(c rune) rune {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// contraction returns the length (2 or 3) of an English contraction 's 't
// 're 've 'm 'll 'd starting at pos within [pos,e), or 0. fold makes the
// letters case-insensitive.
func contraction(cps []rune, pos, e int, fold bool) int {
	if cps[pos] != '\'' || pos+1 >= e {
		return 0
	}
	c1 := cps[pos+1]
	if fold {
		c1 = lowerASCII(c1)
	}
	if c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd' {
		return 2
	}
	if pos+2 >= e {
		return 0
	}
	c2 := cps[pos+2]
	if fold {
		c2 = lowerASCII(c2)
	}
	if (c1 == 'r' && c2 == 'e') || (c1 == 'v' && c2 == 'e') || (c1 == 'l' && c2 == 'l') {
		return 3
	}
	return 0
}

// emitter appends piece ends, dropping empty pieces as llama.cpp does.
type emitter struct {
	out  []int32
	prev int
}

func (m *emitter) emit(end int) {
	if end > m.prev {
		m.out = append(m.out, int32(end))
		m.prev = end
	}
}

// whitespaceTail handles the three whitespace alternatives shared by the
// llama3-style regexes, \s*[\r\n]+ | \s+(?!\S) | \s+, at pos, and returns
// the end of the match (pos+1 when pos is not whitespace at all, which
// makes the character a piece of its own as llama.cpp's scanners do).
func whitespaceTail(t *ptext, pos, e int) int {
	n, lastNL := 0, -1
	for pos+n < e && isWS(t.fl[pos+n]) {
		if c := t.cps[pos+n]; c == '\r' || c == '\n' {
			lastNL = pos + n + 1
		}
		n++
	}
	switch {
	case lastNL >= 0: // \s*[\r\n]+ ends after the last newline of the run
		return lastNL
	case n > 1 && pos+n < e: // \s+(?!\S) leaves the last space to the next word
		return pos + n - 1
	case n > 0:
		return pos + n
	}
	return pos + 1
}
