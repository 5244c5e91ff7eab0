package tokenizer

import "strings"

// symbol is one stretch [s,e) of a word's bytes in the merge list; e == s
// marks a symbol merged into its left neighbour.
type symbol struct {
	s, e       int32
	prev, next int32
	id         int32 // vocabulary id of the symbol's text, -1 if none
}

// pair is a candidate merge of symbols left and right. size is their total
// length when the candidate was made: a candidate whose symbols have
// changed since is stale and skipped.
type pair struct {
	rank, left, right, size, merged int32
}

// pairHeap pops the lowest rank first and, among equal ranks, the leftmost
// pair (llama.cpp's llm_bigram_bpe order).
type pairHeap []pair

func (h pairHeap) less(i, j int) bool {
	return h[i].rank < h[j].rank || (h[i].rank == h[j].rank && h[i].left < h[j].left)
}

func (h *pairHeap) push(p pair) {
	*h = append(*h, p)
	a := *h
	for i := len(a) - 1; i > 0; {
		up := (i - 1) / 2
		if !a.less(i, up) {
			break
		}
		a[i], a[up] = a[up], a[i]
		i = up
	}
}

func (h *pairHeap) pop() pair {
	a := *h
	top := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && a.less(l, m) {
			m = l
		}
		if r < n && a.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
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
		t.addPair(word, syms, &h, int32(i-1), int32(i))
	}
	for len(h) > 0 {
		p := h.pop()
		l, r := &syms[p.left], &syms[p.right]
		if l.e == l.s || r.e == r.s || (l.e-l.s)+(r.e-r.s) != p.size {
			continue
		}
		l.e, l.id = r.e, p.merged
		r.s = r.e
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = p.left
		}
		t.addPair(word, syms, &h, l.prev, p.left)
		t.addPair(word, syms, &h, p.left, l.next)
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

func (t *Tokenizer) addPair(word string, syms []symbol, h *pairHeap, left, right int32) {
	if left < 0 || right < 0 {
		return
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
		return
	}
	rank, merged := unpackMerge(v)
	h.push(pair{rank: rank, left: left, right: right, size: (l.e - l.s) + (r.e - r.s), merged: merged})
}
