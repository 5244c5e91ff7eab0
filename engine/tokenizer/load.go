package tokenizer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
)

// GGUF token types (tokenizer.ggml.token_type).
const (
	typeNormal      = 1
	typeUnknown     = 2
	typeControl     = 3
	typeUserDefined = 4
	typeUnused      = 5
	typeByte        = 6
)

// maxTokens bounds the vocabulary so that a hostile file cannot make the
// per-token tables huge; real vocabularies stay far below.
const maxTokens = 1 << 24

func load(md *gguf.Metadata) (*Tokenizer, error) {
	if md == nil {
		return nil, fmt.Errorf("tokenizer: no metadata")
	}
	model, ok := md.String("tokenizer.ggml.model")
	if !ok {
		return nil, fmt.Errorf("tokenizer: the file has no tokenizer.ggml.model key (no vocabulary)")
	}
	t := &Tokenizer{model: model, eot: -1, eom: -1}
	t.pre, _ = md.String("tokenizer.ggml.pre")

	switch model {
	case ModelSPM:
		t.bos, t.eos, t.unk = 1, 2, 0
		t.addBOS, t.addSpacePrefix = true, true
	case ModelBPE:
		p, err := lookupPreset(t.pre)
		if err != nil {
			return nil, err
		}
		t.preset = p
		t.bos, t.eos, t.unk = 11, 11, -1
		if p.noBOS {
			t.bos = -1
		}
		t.addBOS, t.cleanSpaces = p.addBOS, p.cleanSpaces
	default:
		return nil, fmt.Errorf("tokenizer: unsupported tokenizer model %q (tokenizer.ggml.model); supported: %s (BPE), %s (SentencePiece)",
			model, ModelBPE, ModelSPM)
	}
	if v, ok := md.Bool("tokenizer.ggml.add_space_prefix"); ok {
		t.addSpacePrefix = v
	}

	if err := t.loadTokens(md); err != nil {
		return nil, err
	}
	if model == ModelBPE {
		if err := t.loadMerges(md); err != nil {
			return nil, err
		}
	} else {
		t.spmWords = true
		for _, s := range t.texts {
			if strings.Contains(strings.TrimLeft(s, "▁"), "▁") {
				t.spmWords = false
				break
			}
		}
		for b := 0; b < 256; b++ {
			t.byteFallback[b] = -1
			if id, ok := t.ids[fmt.Sprintf("<0x%02X>", b)]; ok {
				t.byteFallback[b] = id
			} else if id, ok := t.ids[string([]byte{byte(b)})]; ok {
				t.byteFallback[b] = id
			}
		}
	}
	t.loadSpecialIDs(md)
	t.buildSpecialCache()
	t.buildPieces()
	t.applyNameRules(md)
	return t, nil
}

func (t *Tokenizer) loadTokens(md *gguf.Metadata) error {
	tokens, ok := md.Strings("tokenizer.ggml.tokens")
	if !ok {
		return fmt.Errorf("tokenizer: tokenizer.ggml.tokens is missing or not an array of strings")
	}
	n := len(tokens)
	if n == 0 || n > maxTokens {
		return fmt.Errorf("tokenizer: tokenizer.ggml.tokens has %d entries (want 1..%d)", n, maxTokens)
	}
	t.texts = make([]string, n)
	t.ids = make(map[string]int32, n)
	for i, s := range tokens {
		if s == "" {
			s = fmt.Sprintf("[EMPTY_%d]", i) // llama.cpp's stand-in for empty tokens
		}
		if prev, dup := t.ids[s]; dup {
			return fmt.Errorf("tokenizer: token %q appears twice in tokenizer.ggml.tokens (ids %d and %d)", s, prev, i)
		}
		t.texts[i] = s
		t.ids[s] = int32(i)
	}

	t.scores = make([]float32, n)
	if md.Has("tokenizer.ggml.scores") {
		sc, ok := md.Float32s("tokenizer.ggml.scores")
		if !ok {
			return fmt.Errorf("tokenizer: tokenizer.ggml.scores is not a numeric array")
		}
		if len(sc) < n {
			return fmt.Errorf("tokenizer: tokenizer.ggml.scores has %d entries for %d tokens", len(sc), n)
		}
		copy(t.scores, sc)
	}

	t.attrs = make([]uint16, n)
	for i := range t.attrs {
		t.attrs[i] = attrNormal
	}
	if md.Has("tokenizer.ggml.token_type") {
		types, ok := md.Ints("tokenizer.ggml.token_type")
		if !ok {
			return fmt.Errorf("tokenizer: tokenizer.ggml.token_type is not an integer array")
		}
		if len(types) < n {
			return fmt.Errorf("tokenizer: tokenizer.ggml.token_type has %d entries for %d tokens", len(types), n)
		}
		for i := range t.attrs {
			switch types[i] {
			case typeNormal:
				t.attrs[i] = attrNormal
			case typeUnknown:
				t.attrs[i] = attrUnknown
			case typeControl:
				t.attrs[i] = attrControl
			case typeUserDefined:
				t.attrs[i] = attrUserDefined
			case typeUnused:
				t.attrs[i] = attrUnused
			case typeByte:
				t.attrs[i] = attrByte
			default:
				t.attrs[i] = 0 // undefined: rendered as nothing
			}
		}
	}
	return nil
}

// gpt2ByteChars is GPT-2's bytes_to_unicode: printable bytes stand for
// themselves, the others are shifted to U+0100 and up in byte order.
func gpt2ByteChars() (enc [256]string) {
	n := 0
	for b := 0; b < 256; b++ {
		if (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			enc[b] = string(rune(b))
		} else {
			enc[b] = string(rune(256 + n))
			n++
		}
	}
	return enc
}

func pairKey(l, r int32) uint64      { return uint64(uint32(l))<<32 | uint64(uint32(r)) }
func mergeVal(rank, id int32) uint64 { return uint64(uint32(rank))<<32 | uint64(uint32(id)) }
func unpackMerge(v uint64) (rank, id int32) {
	return int32(uint32(v >> 32)), int32(uint32(v))
}

func (t *Tokenizer) loadMerges(md *gguf.Metadata) error {
	t.byteEnc = gpt2ByteChars()
	for b := 0; b < 256; b++ {
		t.byteTok[b], t.rawTok[b] = -1, -1
		if id, ok := t.ids[t.byteEnc[b]]; ok {
			t.byteTok[b] = id
		}
		if id, ok := t.ids[string([]byte{byte(b)})]; ok {
			t.rawTok[b] = id
		}
	}
	merges, ok := md.Strings("tokenizer.ggml.merges")
	if !ok {
		return fmt.Errorf("tokenizer: BPE vocabulary without tokenizer.ggml.merges (or not an array of strings)")
	}
	t.merges = make(map[uint64]uint64, len(merges))
	var buf []byte
	for rank, m := range merges {
		// The split is at the first space after the first byte, so that a
		// merge whose left part is a space still parses (llama.cpp's rule);
		// a line without one records the pair ("", "").
		var a, b string
		if len(m) > 1 {
			if i := strings.IndexByte(m[1:], ' '); i >= 0 {
				a, b = m[:i+1], m[i+2:]
			}
		}
		buf = append(append(buf[:0], a...), b...)
		merged, ok := t.ids[string(buf)]
		if !ok {
			merged = -1
		}
		ia, okA := t.ids[a]
		ib, okB := t.ids[b]
		if okA && okB {
			k := pairKey(ia, ib)
			if _, dup := t.merges[k]; !dup {
				t.merges[k] = mergeVal(int32(rank), merged)
			}
			continue
		}
		if t.smerges == nil {
			t.smerges = map[string]uint64{}
		}
		k := a + "\x00" + b
		if _, dup := t.smerges[k]; !dup {
			t.smerges[k] = mergeVal(int32(rank), merged)
		}
	}
	return nil
}

// Texts by which llama.cpp finds special tokens that the file does not name
// (llama-vocab.cpp, "auto-detect special tokens by text"). The first text
// present in the vocabulary wins, in the order listed.
var (
	eotTexts = []string{"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
		"<|end_of_text|>", "<EOT>", "_<EOT>", "[EOT]", "<｜end▁of▁sentence｜>", "<end_of_utterance>"}
	eomTexts    = []string{"<|eom_id|>"}
	fimPreTexts = []string{"<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<｜fim▁begin｜>", "<PRE>", "▁<PRE>", "<|code_prefix|>", "<|prefix|>"}
	fimSufTexts = []string{"<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<｜fim▁hole｜>", "<SUF>", "▁<SUF>", "<|code_suffix|>", "<|suffix|>"}
	fimMidTexts = []string{"<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<｜fim▁end｜>", "<MID>", "▁<MID>", "<|code_middle|>", "<|middle|>"}
	fimPadTexts = []string{"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"}
	fimRepTexts = []string{"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"}
	fimSepTexts = []string{"<|file_sep|>"}

	// Every token with one of these texts ends generation.
	eogTexts = []string{"<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
		"<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
		"<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>", "<｜end▁of▁sentence｜>", "[e~["}
)

func (t *Tokenizer) loadSpecialIDs(md *gguf.Metadata) {
	n := int32(len(t.texts))
	var sep, pad, mask, fimPre, fimSuf, fimMid, fimPad, fimRep, fimSep int32 = -1, -1, -1, -1, -1, -1, -1, -1, -1
	keys := []struct {
		key string
		id  *int32
	}{
		{"bos_token_id", &t.bos}, {"eos_token_id", &t.eos}, {"eot_token_id", &t.eot}, {"eom_token_id", &t.eom},
		{"unknown_token_id", &t.unk}, {"seperator_token_id", &sep}, {"padding_token_id", &pad},
		{"mask_token_id", &mask}, {"fim_pre_token_id", &fimPre}, {"fim_suf_token_id", &fimSuf},
		{"fim_mid_token_id", &fimMid}, {"fim_pad_token_id", &fimPad}, {"fim_rep_token_id", &fimRep},
		{"fim_sep_token_id", &fimSep},
		// deprecated spellings, read last as llama.cpp does
		{"prefix_token_id", &fimPre}, {"suffix_token_id", &fimSuf}, {"middle_token_id", &fimMid},
	}
	for _, k := range keys {
		if *k.id >= n {
			*k.id = -1 // a default outside the vocabulary is disabled
		}
		if v, ok := md.Uint("tokenizer.ggml." + k.key); ok && v < uint64(n) {
			*k.id = int32(v)
		}
	}
	if v, ok := md.Bool("tokenizer.ggml.add_bos_token"); ok {
		t.addBOS = v
	}
	if v, ok := md.Bool("tokenizer.ggml.add_eos_token"); ok {
		t.addEOS = v
	}

	find := func(id *int32, texts []string) {
		if *id >= 0 {
			return
		}
		for _, s := range texts {
			if i, ok := t.ids[s]; ok {
				*id = i
				t.attrs[i] |= attrControl
				return
			}
		}
	}
	find(&t.eot, eotTexts)
	find(&t.eom, eomTexts)
	find(&fimPre, fimPreTexts)
	find(&fimSuf, fimSufTexts)
	find(&fimMid, fimMidTexts)
	find(&fimPad, fimPadTexts)
	find(&fimRep, fimRepTexts)
	find(&fimSep, fimSepTexts)

	// Control tokens named "unused" are marked so (no effect on encoding).
	for id, a := range t.attrs {
		if a&attrControl != 0 && strings.Contains(t.texts[id], "unused") {
			t.attrs[id] |= attrUnused
		}
	}

	t.eog = map[int32]bool{}
	for _, id := range []int32{fimPad, fimRep, fimSep} {
		if id >= 0 {
			t.eog[id] = true
		}
	}
	for _, s := range eogTexts {
		if i, ok := t.ids[s]; ok {
			t.eog[i] = true
			t.attrs[i] |= attrControl
		}
	}
	// gpt-oss: these structural tokens are always rendered.
	for _, s := range []string{"<|channel|>", "<|message|>", "<|start|>", "<|constrain|>"} {
		if i, ok := t.ids[s]; ok {
			t.attrs[i] = attrUserDefined
		}
	}
	for _, id := range []int32{t.eos, t.eot, t.eom} {
		if id >= 0 {
			t.eog[id] = true
		}
	}
	// o200k_harmony and solar-open: <|end|> separates turns but does not end
	// generation when <|return|>/<|call|> (or <|calls|>/<|flush|>) exist.
	has := func(s string) bool { i, ok := t.ids[s]; return ok && t.eog[i] }
	callAny := has("<|call|>") || has("<|calls|>")
	if end, ok := t.ids["<|end|>"]; ok && t.eog[end] && callAny && (has("<|return|>") || has("<|flush|>")) {
		delete(t.eog, end)
		t.attrs[end] = attrUserDefined
	}
	// gemma4 and paddleocr: </s> is not an end of generation there.
	if s, ok := t.ids["</s>"]; ok && t.eog[s] && has("<|tool_response>") {
		delete(t.eog, s)
		t.attrs[s] = attrNormal
	}
}

// buildSpecialCache lists the tokens matched in text before tokenization,
// longest first (ties by id, where llama.cpp's unstable sort leaves the
// order open).
func (t *Tokenizer) buildSpecialCache() {
	for id, a := range t.attrs {
		if a&(attrControl|attrUserDefined|attrUnknown) != 0 {
			t.special = append(t.special, int32(id))
		}
	}
	sort.SliceStable(t.special, func(i, j int) bool {
		return len(t.texts[t.special[i]]) > len(t.texts[t.special[j]])
	})
}

// applyNameRules sets the strip attributes llama.cpp gives special tokens of
// some models by name (phi-3's special tokens eat the whitespace after them).
func (t *Tokenizer) applyNameRules(md *gguf.Metadata) {
	name, _ := md.String("general.name")
	name = strings.ToLower(name)
	arch, _ := md.String("general.architecture")
	set := func(text string, a uint16, on bool) {
		if id, ok := t.ids[text]; ok {
			if on {
				t.attrs[id] |= a
			} else {
				t.attrs[id] &^= a
			}
		}
	}
	containsAny := func(s string, subs ...string) bool {
		for _, x := range subs {
			if strings.Contains(s, x) {
				return true
			}
		}
		return false
	}
	switch {
	case containsAny(t.pre, "jina-v2-de", "jina-v2-es", "jina-v2-code") || containsAny(arch, "nomic-bert-moe", "jina-bert-v3"):
		set("<mask>", attrLStrip, true)
	case containsAny(name, "phi-3", "phi3"):
		for _, id := range t.special {
			t.attrs[id] |= attrRStrip
		}
		set("</s>", attrRStrip, true)
		for _, s := range []string{"<unk>", "<s>", "<|endoftext|>"} {
			set(s, attrRStrip, false)
		}
	case containsAny(name, "modern-bert"):
		set("[MASK]", attrLStrip, true)
	}
}
