package tokenizer

// spmPair is a candidate merge in SentencePiece: the token of the joined
// text has a score, and the highest score merges first.
type spmPair struct {
	score             float32
	left, right, size int32
}

// spmHeap pops the highest score first and, among equal scores, the
// leftmost pair (llama.cpp's llm_bigram_spm order).
type spmHeap []spmPair

func (h spmHeap) less(i, j int) bool {
	return h[i].score > h[j].score || (h[i].score == h[j].score && h[i].left < h[j].left)
}

func (h *spmHeap) push(p spmPair) {
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

func (h *spmHeap) pop() spmPair {
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

// spm is llama.cpp's llm_tokenizer_spm: start from UTF-8 characters (as the
// lead bytes announce them, without validation), repeatedly join the
// adjacent pair whose joined text is the best-scoring token, then emit each
// symbol's token or, failing that, its bytes as byte tokens.
func (t *Tokenizer) spm(text []byte, st *scratch, out []int32) []int32 {
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
	var h spmHeap
	add := func(left, right int32) {
		if left < 0 || right < 0 {
			return
		}
		s, e := syms[left].s, syms[right].e
		id, ok := t.ids[string(text[s:e])]
		if !ok {
			return
		}
		h.push(spmPair{score: t.scores[id], left: left, right: right, size: e - s})
	}
	for i := 1; i < len(syms); i++ {
		add(int32(i-1), int32(i))
	}
	for len(h) > 0 {
		p := h.pop()
		l, r := &syms[p.left], &syms[p.right]
		if l.e == l.s || r.e == r.s || (l.e-l.s)+(r.e-r.s) != p.size {
			continue
		}
		l.e = r.e
		r.s = r.e
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = p.left
		}
		add(l.prev, p.left)
		add(p.left, l.next)
	}
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
