package tokenizer

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// scratch holds the buffers one Encode call reuses.
type scratch struct {
	frags  []fragment
	cps    []rune
	fl     []uint8
	offs   []int32
	norm   []byte
	ends   []int32
	ends2  []int32
	enc    []byte
	syms   []symbol
	heap   candHeap
	spmBuf []byte
	cache  map[string][]int32 // word -> ids, valid for owner only
	owner  *Tokenizer
}

var scratchPool = sync.Pool{New: func() any { return &scratch{} }}

// Encode turns text into token ids as llama_tokenize does. addSpecial adds
// BOS (and EOS) when the vocabulary asks for them; parseSpecial recognises
// control tokens such as <|im_start|> written in the text (user-defined
// tokens are always recognised, as in llama.cpp).
func (t *Tokenizer) Encode(text string, addSpecial, parseSpecial bool) []int32 {
	st := scratchPool.Get().(*scratch)
	defer scratchPool.Put(st)
	if st.owner != t {
		st.owner, st.cache = t, nil
	}
	out := make([]int32, 0, len(text)/3+2)
	if addSpecial && t.addBOS && t.bos >= 0 {
		out = append(out, t.bos)
	}
	st.frags = t.partition(text, parseSpecial, st.frags)
	prevSpecial := true // SPM puts a space before text that starts the input or follows a token
	for _, f := range st.frags {
		if f.tok >= 0 {
			out = append(out, f.tok)
			prevSpecial = true
			continue
		}
		frag := text[f.s:f.e]
		if t.model == ModelSPM {
			out = t.encodeSPM(frag, t.addSpacePrefix && prevSpecial, st, out)
		} else {
			out = t.encodeBPE(frag, st, out)
		}
		prevSpecial = false
	}
	if addSpecial && t.addEOS && t.eos >= 0 {
		out = append(out, t.eos)
	}
	if st.cache != nil && len(st.cache) > maxCachedWords {
		st.cache = nil
	}
	return out
}

// maxCachedWords bounds the per-call cache of word tokenizations (kept
// between calls through the pool while small).
const maxCachedWords = 1 << 14

// encodeBPE pre-tokenizes one text fragment and merges every word.
func (t *Tokenizer) encodeBPE(frag string, st *scratch, out []int32) []int32 {
	st.cps = decodeCodepoints(frag, st.cps)
	cps := st.cps
	tab := flagTable()
	st.fl = st.fl[:0]
	st.offs = st.offs[:0]
	// The words are re-encoded from the codepoints as llama.cpp does, which
	// turns invalid bytes into U+FFFD; valid input is used as it is.
	norm := st.norm[:0]
	valid := utf8.ValidString(frag)
	pos := 0
	for _, c := range cps {
		st.fl = append(st.fl, tab[c])
		st.offs = append(st.offs, int32(pos))
		if valid {
			pos += utf8.RuneLen(c)
		} else {
			norm = appendCodepoint(norm, c)
			pos = len(norm)
		}
	}
	st.offs = append(st.offs, int32(pos))
	st.norm = norm
	src := frag
	if !valid {
		src = string(norm)
	}
	pt := ptext{cps: cps, fl: st.fl}
	st.ends = t.preset.split(&pt, st.ends, st.ends2)
	start := 0
	for _, e := range st.ends {
		word := src[st.offs[start]:st.offs[e]]
		start = int(e)
		out = t.bpeWord(word, st, out)
	}
	return out
}

// encodeSPM runs SentencePiece over one fragment, with spaces written as ▁.
func (t *Tokenizer) encodeSPM(frag string, prefix bool, st *scratch, out []int32) []int32 {
	b := st.spmBuf[:0]
	if prefix {
		b = append(b, "▁"...)
	}
	for len(frag) > 0 {
		i := strings.IndexByte(frag, ' ')
		if i < 0 {
			b = append(b, frag...)
			break
		}
		b = append(append(b, frag[:i]...), "▁"...)
		frag = frag[i+1:]
	}
	st.spmBuf = b
	return t.spm(b, st, out)
}
