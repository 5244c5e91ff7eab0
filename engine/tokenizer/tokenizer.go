package tokenizer

import "github.com/emberllm/ember/engine/gguf"

// Token attributes, as llama.cpp's llama_token_attr bits.
const (
	attrUnknown     uint16 = 1 << 0
	attrUnused      uint16 = 1 << 1
	attrNormal      uint16 = 1 << 2
	attrControl     uint16 = 1 << 3
	attrUserDefined uint16 = 1 << 4
	attrByte        uint16 = 1 << 5
	attrLStrip      uint16 = 1 << 7
	attrRStrip      uint16 = 1 << 8
)

// Model types (tokenizer.ggml.model).
const (
	ModelBPE = "gpt2"
	ModelSPM = "llama"
)

// Tokenizer encodes and decodes text for one vocabulary. It is immutable
// after FromGGUF and safe for concurrent use.
type Tokenizer struct {
	model string // ModelBPE or ModelSPM
	pre   string // tokenizer.ggml.pre as given ("" when absent)

	texts  []string
	attrs  []uint16
	scores []float32
	ids    map[string]int32
	pieces []string // token_to_piece(special=true) of every token

	bos, eos, eot, eom, unk int32
	eog                     map[int32]bool
	addBOS, addEOS          bool
	addSpacePrefix          bool // SPM: a space before text at the start and after specials
	cleanSpaces             bool // detokenizer: llama.cpp's clean_up_tokenization_spaces

	special []int32 // control/user-defined/unknown tokens, longest text first

	// BPE only.
	preset  preset
	merges  map[uint64]uint64 // (left id, right id) -> (rank, merged id)
	smerges map[string]uint64 // "left\x00right" -> (rank, merged id) for merges of non-tokens
	byteEnc [256]string       // GPT-2's byte -> printable character
	byteTok [256]int32        // token of byteEnc[b], or -1
	rawTok  [256]int32        // token whose text is the single raw byte b, or -1

	// SPM only: token of <0xXX>, falling back to the raw byte, or -1.
	byteFallback [256]int32
	spmWords     bool // no token has ▁ after other text (see spm)
}

// FromGGUF builds the tokenizer described by a file's tokenizer.* keys.
func FromGGUF(md *gguf.Metadata) (*Tokenizer, error) { return load(md) }

// Model is "gpt2" (byte-level BPE) or "llama" (SentencePiece).
func (t *Tokenizer) Model() string { return t.model }

// Pre is the pre-tokenizer name (tokenizer.ggml.pre), "" when absent.
func (t *Tokenizer) Pre() string { return t.pre }

// VocabSize is the number of tokens.
func (t *Tokenizer) VocabSize() int { return len(t.texts) }

// BOS is the beginning-of-sequence token, -1 when the vocabulary has none.
func (t *Tokenizer) BOS() int32 { return t.bos }

// EOS is the end-of-sequence token, -1 when absent.
func (t *Tokenizer) EOS() int32 { return t.eos }

// EOT is the end-of-turn token (from tokenizer.ggml.eot_token_id or found by
// its text as llama.cpp does), -1 when absent.
func (t *Tokenizer) EOT() int32 { return t.eot }

// EOM is the end-of-message token (<|eom_id|>), -1 when absent.
func (t *Tokenizer) EOM() int32 { return t.eom }

// AddBOS reports whether Encode with addSpecial prepends BOS.
func (t *Tokenizer) AddBOS() bool { return t.addBOS && t.bos >= 0 }

// AddEOS reports whether Encode with addSpecial appends EOS.
func (t *Tokenizer) AddEOS() bool { return t.addEOS && t.eos >= 0 }

// IsEOG reports whether id ends generation: EOS, EOT, EOM and the tokens
// llama.cpp recognises by their text (<|im_end|>, <|endoftext|> ...).
func (t *Tokenizer) IsEOG(id int32) bool { return t.eog[id] }

// EOGs lists the end-of-generation tokens in increasing order.
func (t *Tokenizer) EOGs() []int32 {
	out := make([]int32, 0, len(t.eog))
	for id := range t.texts {
		if t.eog[int32(id)] {
			out = append(out, int32(id))
		}
	}
	return out
}

// IsControl reports whether id is a control token (rendered as nothing by
// Decode and the streaming Decoder).
func (t *Tokenizer) IsControl(id int32) bool { return t.valid(id) && t.attrs[id]&attrControl != 0 }

// IsSpecial reports whether id is a control, user-defined or unknown token:
// the tokens recognised in text before the model's algorithm runs.
func (t *Tokenizer) IsSpecial(id int32) bool {
	return t.valid(id) && t.attrs[id]&(attrControl|attrUserDefined|attrUnknown) != 0
}

// TokenID returns the id of a token by its vocabulary text (for BPE that is
// the byte-encoded form, e.g. "Ġthe"; for SPM "▁the").
func (t *Tokenizer) TokenID(text string) (int32, bool) {
	id, ok := t.ids[text]
	return id, ok
}

// TokenText is the vocabulary text of id ("" when out of range).
func (t *Tokenizer) TokenText(id int32) string {
	if !t.valid(id) {
		return ""
	}
	return t.texts[id]
}

func (t *Tokenizer) valid(id int32) bool { return id >= 0 && int(id) < len(t.texts) }
