package tokenizer

// The llama3 family of regexes (llama3/glm4, qwen2, qwen35):
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// qwen2 takes single digits (\p{N}) and qwen35 treats marks as letters
// ([\p{L}\p{M}]+ and [^\s\p{L}\p{M}\p{N}]).

func splitLlama3(t *ptext, s, e int, out []int32) []int32 { return splitL3(t, s, e, out, 3, false) }
func splitQwen2(t *ptext, s, e int, out []int32) []int32  { return splitL3(t, s, e, out, 1, false) }
func splitQwen35(t *ptext, s, e int, out []int32) []int32 { return splitL3(t, s, e, out, 1, true) }

func splitL3(t *ptext, s, e int, out []int32, digits int, marks bool) []int32 {
	cps, fl := t.cps, t.fl
	word := func(i int) bool {
		if i >= e {
			return false
		}
		c := cat(fl[i])
		return c == catLetter || (marks && c == catMark)
	}
	// other is [^\s\p{L}\p{N}] (and \p{M} for qwen35).
	other := func(i int) bool {
		if i >= e {
			return false
		}
		f := fl[i]
		c := cat(f)
		return !isWS(f) && c != catLetter && c != catNumber && !(marks && c == catMark)
	}
	m := emitter{out: out, prev: s}
	for pos := s; pos < e; {
		c, f := cps[pos], fl[pos]
		if n := contraction(cps, pos, e, true); n > 0 {
			pos += n
			m.emit(pos)
			continue
		}
		// [^\r\n\p{L}\p{N}]?\p{L}+
		if c != '\r' && c != '\n' && !isNumber(f) && (word(pos) || word(pos+1)) {
			pos++
			for word(pos) {
				pos++
			}
			m.emit(pos)
			continue
		}
		// \p{N}{1,3}: a run of digits goes out in groups of `digits`
		if isNumber(f) {
			ini := pos
			for pos < e && isNumber(fl[pos]) {
				pos++
				if pos-ini >= digits {
					m.emit(pos)
					ini = pos
				}
			}
			m.emit(pos)
			continue
		}
		// ' ?[^\s\p{L}\p{N}]+[\r\n]*'
		if other(pos) || (c == ' ' && other(pos+1)) {
			if c == ' ' {
				pos++
			}
			for other(pos) {
				pos++
			}
			for pos < e && (cps[pos] == '\r' || cps[pos] == '\n') {
				pos++
			}
			m.emit(pos)
			continue
		}
		pos = whitespaceTail(t, pos, e)
		m.emit(pos)
	}
	return m.out
}

// splitGPT2 is GPT-2's regex (also olmo, mpt and the other gpt-2 aliases):
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// (the final \s+ stands for llama.cpp's handling of a lone whitespace that
// the regex leaves unmatched: it becomes a piece of its own either way).
func splitGPT2(t *ptext, s, e int, out []int32) []int32 {
	cps, fl := t.cps, t.fl
	in := func(i int, want uint8) bool { return i < e && cat(fl[i]) == want }
	other := func(i int) bool {
		if i >= e {
			return false
		}
		f := fl[i]
		c := cat(f)
		return !isWS(f) && c != catLetter && c != catNumber
	}
	m := emitter{out: out, prev: s}
	for pos := s; pos < e; {
		c := cps[pos]
		if n := contraction(cps, pos, e, false); n > 0 {
			pos += n
			m.emit(pos)
			continue
		}
		look := pos // the class decision is made on the char after an optional space
		if c == ' ' {
			look = pos + 1
		}
		switch {
		case in(look, catLetter):
			pos = look
			for in(pos, catLetter) {
				pos++
			}
		case in(look, catNumber):
			pos = look
			for in(pos, catNumber) {
				pos++
			}
		case other(look):
			pos = look
			for other(pos) {
				pos++
			}
		default:
			pos = whitespaceTailGPT2(t, pos, e)
		}
		m.emit(pos)
	}
	return m.out
}

// whitespaceTailGPT2 is \s+(?!\S) with a lone-whitespace fallback: GPT-2's
// regex has no \s*[\r\n]+ alternative.
func whitespaceTailGPT2(t *ptext, pos, e int) int {
	n := 0
	for pos+n < e && isWS(t.fl[pos+n]) {
		n++
	}
	switch {
	case n > 1 && pos+n < e:
		return pos + n - 1
	case n > 0:
		return pos + n
	}
	return pos + 1
}
