package tokenizer

import (
	"sync"
	"unicode"
)

// Codepoint categories as llama.cpp groups them (its unicode_cpt_flags):
// one major category per codepoint, "undefined" for unassigned ones.
const (
	catUndef uint8 = iota
	catNumber
	catLetter
	catSeparator
	catMark
	catPunct
	catSymbol
	catControl // Cc, Cf, Co and Cs together, as \p{C}
)

// flagWS marks llama.cpp's whitespace set (Unicode White_Space); it is kept
// apart from the category because U+0085 is a control and U+00A0 a separator.
const flagWS uint8 = 0x80

const maxCodepoint = 0x10FFFF

var (
	cpFlagsOnce sync.Once
	cpFlags     []uint8
)

// unicode15_1 lists the codepoints llama.cpp's table (generated from Unicode
// 15.1) assigns but Go's unicode package (Unicode 15.0) does not. Without
// them CJK Extension I would be "undefined" here and letters there.
var unicode15_1 = []struct {
	lo, hi rune
	cat    uint8
}{
	{0x2FFC, 0x2FFF, catSymbol},   // ideographic description characters
	{0x31EF, 0x31EF, catSymbol},   // CJK stroke HXG
	{0x2EBF0, 0x2EE5D, catLetter}, // CJK Unified Ideographs Extension I
}

// whitespace is llama.cpp's \s set (Unicode White_Space).
var whitespace = []rune{
	0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
	0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
}

func buildFlags() {
	t := make([]uint8, maxCodepoint+1)
	set := func(tab *unicode.RangeTable, cat uint8) {
		for _, r := range tab.R16 {
			for c := uint32(r.Lo); c <= uint32(r.Hi); c += uint32(r.Stride) {
				t[c] = cat
			}
		}
		for _, r := range tab.R32 {
			for c := r.Lo; c <= r.Hi; c += r.Stride {
				t[c] = cat
			}
		}
	}
	set(unicode.L, catLetter)
	set(unicode.N, catNumber)
	set(unicode.Z, catSeparator)
	set(unicode.M, catMark)
	set(unicode.P, catPunct)
	set(unicode.S, catSymbol)
	for _, tab := range []*unicode.RangeTable{unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs} {
		set(tab, catControl)
	}
	for _, r := range unicode15_1 {
		for c := r.lo; c <= r.hi; c++ {
			t[c] = r.cat
		}
	}
	for _, c := range whitespace {
		t[c] |= flagWS
	}
	cpFlags = t
}

// flagsOf returns the category and whitespace bit of a codepoint.
func flagsOf(c rune) uint8 {
	if c < 0 || c > maxCodepoint {
		return catUndef
	}
	cpFlagsOnce.Do(buildFlags)
	return cpFlags[c]
}

// flagTable returns the whole table, for scanners that look up many
// codepoints in a loop.
func flagTable() []uint8 {
	cpFlagsOnce.Do(buildFlags)
	return cpFlags
}

// decodeCodepoints splits text into codepoints the way llama.cpp's
// unicode_cpts_from_utf8 does: a lead byte is trusted for the length as long
// as the continuation bytes have the 10xxxxxx form (so overlong forms and
// surrogates decode to their value), and every byte that does not start such
// a sequence becomes U+FFFD on its own. Sequences that would exceed U+10FFFF
// (which llama.cpp accepts and then fails on) are treated as invalid here.
func decodeCodepoints(s string, cps []rune) []rune {
	cps = cps[:0]
	n := len(s)
	for i := 0; i < n; {
		b := s[i]
		switch {
		case b < 0x80:
			cps = append(cps, rune(b))
			i++
			continue
		case b < 0xC0: // stray continuation byte
		case b < 0xE0:
			if i+1 < n && s[i+1]&0xC0 == 0x80 {
				cps = append(cps, rune(b&0x1F)<<6|rune(s[i+1]&0x3F))
				i += 2
				continue
			}
		case b < 0xF0:
			if i+2 < n && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
				cps = append(cps, rune(b&0x0F)<<12|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F))
				i += 3
				continue
			}
		case b < 0xF8:
			if i+3 < n && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 && s[i+3]&0xC0 == 0x80 {
				c := rune(b&0x07)<<18 | rune(s[i+1]&0x3F)<<12 | rune(s[i+2]&0x3F)<<6 | rune(s[i+3]&0x3F)
				if c <= maxCodepoint {
					cps = append(cps, c)
					i += 4
					continue
				}
			}
		}
		cps = append(cps, 0xFFFD)
		i++
	}
	return cps
}

// appendCodepoint encodes c as UTF-8 without Go's surrogate check, because
// llama.cpp re-encodes a decoded surrogate as the same three bytes.
func appendCodepoint(b []byte, c rune) []byte {
	switch {
	case c < 0x80:
		return append(b, byte(c))
	case c < 0x800:
		return append(b, 0xC0|byte(c>>6), 0x80|byte(c&0x3F))
	case c < 0x10000:
		return append(b, 0xE0|byte(c>>12), 0x80|byte(c>>6&0x3F), 0x80|byte(c&0x3F))
	default:
		return append(b, 0xF0|byte(c>>18), 0x80|byte(c>>12&0x3F), 0x80|byte(c>>6&0x3F), 0x80|byte(c&0x3F))
	}
}

// utf8Len is llama.cpp's unicode_len_utf8: the sequence length a lead byte
// announces, 1 for ASCII and stray continuation bytes.
func utf8Len(b byte) int {
	switch b >> 4 {
	case 0xC, 0xD:
		return 2
	case 0xE:
		return 3
	case 0xF:
		return 4
	}
	return 1
}
