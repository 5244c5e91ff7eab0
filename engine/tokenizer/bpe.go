package tokenizer

import "strings"

// symbol is one stretch [s,e) of a word's bytes in the merge list; e == s
// marks a symbol merged into its left neighbour.
type symbol struct {
	s, e       int32
	prev, next int32
	id         int32 // vocabulary id of the symbol's text, -1 if none
}

// maxCachedWordLen bounds the words whose tokenization is remembered during
// one Encode call (long words are rare and would bloat the cache).
const maxCachedWordLen = 48

// bpeWord merges one pre-tokenized word (raw bytes, before GPT-2's byte
// encoding) and appends its tokens.
func (t *Tokenizer) bpeWord(word string, st *scratch, out []int32) []int32 {
	if len(word) == 0 {
		return out
	}
	cacheable := len(word) <= maxCachedWordLen
	if cacheable && st.cache != nil {
		if ids, ok := st.cache[word]; ok {
			return append(out, ids...)
		}
	}
	n0 := len(out)
	out = t.mergeWord(word, st, out)
	if cacheable {
		if st.cache == nil {
			st.cache = make(map[string][]int32)
		}
		if len(st.cache) < maxCachedWords {
			st.cache[strings.Clone(word)] = append([]int32(nil), out[n0:]...)
		}
	}
	return out
}

func (t *Tokenizer) encodeBytes(dst []byte, raw string) []byte {
	for i := 0; i < len(raw); i++ {
		dst = append(dst, t.byteEnc[raw[i]]...)
	}
	return dst
}

func (t *Tokenizer) mergeWord(word string, st *scratch, out []int32) []int32 {
	if t.preset.ignoreMerges {
		// Llama 3 style: a word that is itself a token is taken whole, even
		// where the merges would split it differently.
		st.enc = t.encodeBytes(st.enc[:0], word)
		if id, ok := t.ids[string(st.enc)]; ok {
			return append(out, id)
		}
	}
	if len(word) == 1 {
		if id := t.byteTok[word[0]]; id >= 0 {
			return append(out, id)
		}
	}
	syms := st.syms[:0]
	for i := 0; i < len(word); i++ {
		syms = append(syms, symbol{s: int32(i), e: int32(i + 1), prev: int32(i - 1), next: int32(i + 1), id: t.byteTok[word[i]]})
	}
	syms[len(syms)-1].next = -1
	st.syms = syms
	h := st.heap[:0]
	for i := 1; i < len(syms); i++ {
		if c, ok := t.candidate(word, syms, int32(i-1), int32(i)); ok {
			h = append(h, c)
		}
	}
	h.heapify()
	for len(h) > 0 {
		c := h.pop()
		left := c.left()
		l := &syms[left]
		if l.e == l.s || l.next < 0 {
			continue
		}
		right := l.next
		r := &syms[right]
		if (l.e-l.s)+(r.e-r.s) != c.size {
			continue
		}
		l.e, l.id = r.e, c.merged
		r.s = r.e
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = left
		}
		if c, ok := t.candidate(word, syms, l.prev, left); ok {
			h.push(c)
		}
		if c, ok := t.candidate(word, syms, left, l.next); ok {
			h.push(c)
		}
	}
	st.heap = h
	for i := int32(0); i >= 0; i = syms[i].next {
		sy := syms[i]
		if sy.id >= 0 {
			out = append(out, sy.id)
			continue
		}
		// Not a token: llama.cpp emits the tokens of the single bytes of the
		// (byte-encoded) text that exist, and drops the rest.
		st.enc = t.encodeBytes(st.enc[:0], word[sy.s:sy.e])
		for _, b := range st.enc {
			if id := t.rawTok[b]; id >= 0 {
				out = append(out, id)
			}
		}
	}
	return out
}

// candidate looks up the merge of two adjacent symbols.
func (t *Tokenizer) candidate(word string, syms []symbol, left, right int32) (cand, bool) {
	if left < 0 || right < 0 {
		return cand{}, false
	}
	l, r := syms[left], syms[right]
	var v uint64
	var ok bool
	if l.id >= 0 && r.id >= 0 {
		v, ok = t.merges[pairKey(l.id, r.id)]
	} else if t.smerges != nil {
		k := string(t.encodeBytes(nil, word[l.s:l.e])) + "\x00" + string(t.encodeBytes(nil, word[r.s:r.e]))
		v, ok = t.smerges[k]
	}
	if !ok {
		return cand{}, false
	}
	rank, merged := unpackMerge(v)
	return cand{key: bpeKey(rank, left), size: (l.e - l.s) + (r.e - r.s), merged: merged}, true
}
