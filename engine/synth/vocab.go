package synth

import (
	"fmt"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
)

// Vocab is a tokenizer to embed: the tokenizer.* metadata keys, and the
// number of tokens (which sets the embedding and output shapes).
type Vocab struct {
	KVs  []gguf.KV
	Size int
}

// llama.cpp token types
const (
	tokNormal  = 1
	tokControl = 3
	tokUnused  = 5
)

// byteChars is GPT-2's byte-to-unicode table: printable bytes stand for
// themselves, the others for code points from 256 up, so every byte is a
// visible character in tokens and merges.
func byteChars() [256]rune {
	var m [256]rune
	next := rune(256)
	for b := 0; b < 256; b++ {
		if b >= '!' && b <= '~' || b >= 0xa1 && b <= 0xac || b >= 0xae {
			m[b] = rune(b)
		} else {
			m[b] = next
			next++
		}
	}
	return m
}

// words become the built-in tokenizer's merges, built up left to right
// ("Ġ t", "Ġt h", "Ġth e"), so every merge joins two existing tokens.
var words = []string{
	" the", " and", " a", " to", " was", " he", " she", " it", " of", " in",
	" that", " with", " for", " on", " is", " her", " his", " they", " you",
	" said", " day", " play", " little", " girl", " boy", " time", " once",
	" upon", " there", " happy", " big", " friend", " mom", " saw", " park",
	"ing", "ed", "er", "ly", "The", "Once", "One", "\n\n", " .", ".",
}

// BuiltinVocab is a small byte-level BPE tokenizer (llama.cpp model gpt2,
// pre-tokenizer default): the 256 byte tokens, merges for a few common
// English words, and BOS/EOS/EOT control tokens. With size larger than its
// natural size it is padded with unused filler tokens up to size, so a
// real shape keeps its real vocabulary size.
func BuiltinVocab(size int) (*Vocab, error) {
	chars := byteChars()
	var tokens []string
	var types []int32
	have := map[string]bool{}
	addTok := func(s string, typ int32) {
		tokens = append(tokens, s)
		types = append(types, typ)
		have[s] = true
	}
	// GPT-2 order: the printable bytes first, then the remapped ones
	for _, pass := range []bool{true, false} {
		for b := 0; b < 256; b++ {
			if (chars[b] == rune(b)) == pass {
				addTok(string(chars[b]), tokNormal)
			}
		}
	}
	var merges []string
	for _, w := range words {
		var enc []string
		for _, b := range []byte(w) {
			enc = append(enc, string(chars[b]))
		}
		cur := enc[0]
		for _, next := range enc[1:] {
			joined := cur + next
			if !have[joined] {
				merges = append(merges, cur+" "+next)
				addTok(joined, tokNormal)
			}
			cur = joined
		}
	}
	bos := len(tokens)
	addTok("<|bos|>", tokControl)
	addTok("<|eos|>", tokControl)
	addTok("<|eot|>", tokControl)
	if size > 0 && size < len(tokens) {
		return nil, fmt.Errorf("synth: vocabulary size %d is smaller than the built-in tokenizer's %d tokens", size, len(tokens))
	}
	for i := len(tokens); i < size; i++ {
		addTok(fmt.Sprintf("[PAD%d]", i), tokUnused)
	}
	v := &Vocab{Size: len(tokens)}
	set := func(k string, val gguf.Value) { v.KVs = append(v.KVs, gguf.KV{Key: k, Value: val}) }
	set("tokenizer.ggml.model", gguf.ValStr("gpt2"))
	set("tokenizer.ggml.pre", gguf.ValStr("default"))
	set("tokenizer.ggml.tokens", gguf.ValStrs(tokens))
	set("tokenizer.ggml.token_type", gguf.ValI32s(types))
	set("tokenizer.ggml.merges", gguf.ValStrs(merges))
	set("tokenizer.ggml.bos_token_id", gguf.ValU32(uint32(bos)))
	set("tokenizer.ggml.eos_token_id", gguf.ValU32(uint32(bos+1)))
	set("tokenizer.ggml.eot_token_id", gguf.ValU32(uint32(bos+2)))
	set("tokenizer.ggml.add_bos_token", gguf.ValBool(true))
	return v, nil
}

// VocabFromFile copies every tokenizer.* key of a GGUF file (a
// vocabulary-only file such as llama.cpp's ggml-vocab-*.gguf, or a model).
func VocabFromFile(path string) (*Vocab, error) {
	r, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	v := &Vocab{}
	for _, kv := range r.Metadata.KVs {
		if strings.HasPrefix(kv.Key, "tokenizer.") {
			v.KVs = append(v.KVs, kv)
		}
	}
	toks, ok := r.Metadata.Strings("tokenizer.ggml.tokens")
	if !ok || len(toks) == 0 {
		return nil, fmt.Errorf("synth: %s has no tokenizer.ggml.tokens", path)
	}
	v.Size = len(toks)
	return v, nil
}
