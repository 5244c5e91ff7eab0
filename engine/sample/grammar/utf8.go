package grammar

import (
	"slices"
	"unicode/utf8"
)

// byteSet is a set of byte values.
type byteSet [4]uint64

func (s *byteSet) add(lo, hi byte) {
	for b := int(lo); b <= int(hi); b++ {
		s[b>>6] |= 1 << (b & 63)
	}
}

func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }

func (s *byteSet) empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

// runeRange is an inclusive range of code points.
type runeRange struct{ lo, hi rune }

// normalize sorts and merges ranges, dropping the surrogates, which UTF-8
// cannot encode.
func normalize(rs []runeRange) []runeRange {
	var cut []runeRange
	for _, r := range rs {
		if r.lo > r.hi {
			continue
		}
		r.hi = min(r.hi, utf8.MaxRune)
		if r.lo <= 0xDFFF && r.hi >= 0xD800 {
			if r.lo < 0xD800 {
				cut = append(cut, runeRange{r.lo, 0xD7FF})
			}
			if r.hi > 0xDFFF {
				cut = append(cut, runeRange{0xE000, r.hi})
			}
			continue
		}
		cut = append(cut, r)
	}
	slices.SortFunc(cut, func(a, b runeRange) int { return int(a.lo - b.lo) })
	var out []runeRange
	for _, r := range cut {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// complement is every character outside rs.
func complement(rs []runeRange) []runeRange {
	rs = normalize(rs)
	var out []runeRange
	next := rune(0)
	for _, r := range rs {
		if r.lo > next {
			out = append(out, runeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, runeRange{next, utf8.MaxRune})
	}
	return normalize(out)
}

// byteRange is an inclusive range of byte values.
type byteRange struct{ lo, hi byte }

// utf8Sequences turns character ranges into the UTF-8 byte sequences that
// encode exactly those characters: each sequence is one byte range per
// byte (the classic split of a range at the boundaries where the encoding
// changes length or a continuation byte's range stops being full).
func utf8Sequences(rs []runeRange) [][]byteRange {
	var out [][]byteRange
	for _, r := range normalize(rs) {
		splitRange(r.lo, r.hi, &out)
	}
	return out
}

func splitRange(lo, hi rune, out *[][]byteRange) {
	// One encoded length at a time.
	for _, edge := range []rune{0x7F, 0x7FF, 0xFFFF} {
		if lo <= edge && hi > edge {
			splitRange(lo, edge, out)
			splitRange(edge+1, hi, out)
			return
		}
	}
	if hi <= 0x7F {
		*out = append(*out, []byteRange{{byte(lo), byte(hi)}})
		return
	}
	n := utf8.RuneLen(lo)
	// Align the trailing continuation bytes: below the first byte that
	// differs, lo's bytes must all be 0x80 and hi's all 0xBF.
	for i := 1; i < n; i++ {
		m := rune(1)<<(6*i) - 1
		if lo&^m != hi&^m {
			if lo&m != 0 {
				splitRange(lo, lo|m, out)
				splitRange((lo|m)+1, hi, out)
				return
			}
			if hi&m != m {
				splitRange(lo, (hi&^m)-1, out)
				splitRange(hi&^m, hi, out)
				return
			}
		}
	}
	var a, b [4]byte
	utf8.EncodeRune(a[:], lo)
	utf8.EncodeRune(b[:], hi)
	seq := make([]byteRange, n)
	for i := range seq {
		seq[i] = byteRange{a[i], b[i]}
	}
	*out = append(*out, seq)
}
