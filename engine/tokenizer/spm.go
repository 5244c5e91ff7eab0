package tokenizer

// spm is llama.cpp's llm_tokenizer_spm: start from UTF-8 characters (as the
// lead bytes announce them, without validation), repeatedly join the
// adjacent pair whose joined text is the best-scoring token, then emit each
// symbol's token or, failing that, its bytes as byte tokens.
func (t *Tokenizer) spm(text []byte, st *scratch, out []int32) []int32 {
	if !t.spmWords {
		return t.spmRun(text, st, out)
	}
	// No token has a ▁ after other text, so no merge crosses the start of a
	// run of ▁ that follows other text: the pieces between such points merge
	// independently, in the same relative order, and can be cached.
	start, prevSpace := 0, false
	for off := 0; off < len(text); {
		n := min(utf8Len(text[off]), len(text)-off)
		space := n == 3 && string(text[off:off+3]) == "▁"
		if space && !prevSpace && off > start {
			out = t.spmCached(text[start:off], st, out)
			start = off
		}
		prevSpace = space
		off += n
	}
	return t.spmCached(text[start:], st, out)
}

func (t *Tokenizer) spmCached(seg []byte, st *scratch, out []int32) []int32 {
	if len(seg) > maxCachedWordLen {
		return t.spmRun(seg, st, out)
	}
	if ids, ok := st.cache[string(seg)]; ok {
		return append(out, ids...)
	}
	n0 := len(out)
	out = t.spmRun(seg, st, out)
	if st.cache == nil {
		st.cache = make(map[string][]int32)
	}
	if len(st.cache) < maxCachedWords {
		st.cache[string(seg)] = append([]int32(nil), out[n0:]...)
	}
	return out
}

// spmRun merges one stretch of text as a whole.
func (t *Tokenizer) spmRun(text []byte, st *scratch, out []int32) []int32 {
	if len(text) == 0 {
		return out
	}
	syms := st.syms[:0]
	for off := 0; off < len(text); {
		n := min(utf8Len(text[off]), len(text)-off)
		i := int32(len(syms))
		syms = append(syms, symbol{s: int32(off), e: int32(off + n), prev: i - 1, next: i + 1})
		off += n
	}
	syms[len(syms)-1].next = -1
	st.syms = syms
	h := st.heap[:0]
	cand := func(left, right int32) (cand, bool) {
		if left < 0 || right < 0 {
			return cand{}, false
		}
		s, e := syms[left].s, syms[right].e
		id, ok := t.ids[string(text[s:e])]
		if !ok {
			return cand{}, false
		}
		return cand{key: spmKey(t.scores[id], left), size: e - s}, true
	}
	for i := 1; i < len(syms); i++ {
		if c, ok := cand(int32(i-1), int32(i)); ok {
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
		l.e = r.e
		r.s = r.e
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = left
		}
		if c, ok := cand(l.prev, left); ok {
			h.push(c)
		}
		if c, ok := cand(left, l.next); ok {
			h.push(c)
		}
	}
	st.heap = h
	for i := int32(0); i >= 0; i = syms[i].next {
		sy := syms[i]
		if id, ok := t.ids[string(text[sy.s:sy.e])]; ok {
			out = append(out, id)
			continue
		}
		for _, b := range text[sy.s:sy.e] {
			switch {
			case t.byteFallback[b] >= 0:
				out = append(out, t.byteFallback[b])
			case t.unk >= 0:
				// llama.cpp fails here (no byte token); the unknown token is
				// the closest meaningful answer.
				out = append(out, t.unk)
			}
		}
	}
	return out
}
