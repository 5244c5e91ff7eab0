package tokenizer

import "strings"

// fragment is a stretch of the input: raw text [s,e) or one special token.
type fragment struct {
	tok  int32 // -1 for text
	s, e int
}

// isCSpace is C's isspace in the "C" locale, which llama.cpp uses to strip
// whitespace next to tokens with the lstrip/rstrip attributes.
func isCSpace(b byte) bool { return b == ' ' || (b >= '\t' && b <= '\r') }

// partition splits text at special tokens the way llama.cpp's
// tokenizer_st_partition does: each special token in turn, longest first,
// is searched (leftmost, non-overlapping) in the text fragments that remain.
// Without parseSpecial only user-defined tokens are matched.
func (t *Tokenizer) partition(text string, parseSpecial bool, frags []fragment) []fragment {
	frags = append(frags[:0], fragment{tok: -1, s: 0, e: len(text)})
	if len(text) == 0 {
		return frags[:0]
	}
	var next []fragment
	for _, id := range t.special {
		a := t.attrs[id]
		if !parseSpecial && a&(attrControl|attrUnknown) != 0 {
			continue
		}
		tok := t.texts[id]
		// Most special tokens never occur: skip them with one scan.
		if !strings.Contains(text, tok) {
			continue
		}
		next = next[:0]
		for _, f := range frags {
			if f.tok >= 0 {
				next = append(next, f)
				continue
			}
			s, e := f.s, f.e
			for s < e {
				i := strings.Index(text[s:e], tok)
				if i < 0 {
					break
				}
				m := s + i
				left := m
				if a&attrLStrip != 0 {
					for left > s && isCSpace(text[left-1]) {
						left--
					}
				}
				if left > s {
					next = append(next, fragment{tok: -1, s: s, e: left})
				}
				next = append(next, fragment{tok: id, s: m, e: m + len(tok)})
				s = m + len(tok)
				if a&attrRStrip != 0 {
					for s < e && isCSpace(text[s]) {
						s++
					}
				}
			}
			if s < e {
				next = append(next, fragment{tok: -1, s: s, e: e})
			}
		}
		frags, next = next, frags
	}
	return frags
}
