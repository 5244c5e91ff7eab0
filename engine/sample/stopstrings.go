package sample

import (
	"strings"
	"unicode/utf8"
)

// StopStrings watches generated text for stop strings. Text arrives in the
// pieces a detokenizer produces, so a stop string may be split across any
// number of pieces; Feed therefore holds back the longest tail of the text
// that could still grow into a stop string and releases it once it cannot.
//
// The result does not depend on how the text is split: generation stops at
// the stop string occurrence that ends first in the text (on a tie, the one
// that starts first), which is what feeding the text byte by byte and
// stopping at the first hit would do. Everything from the start of that
// occurrence on is dropped.
//
// Feed also holds back an incomplete UTF-8 sequence at the end of the text,
// so what it emits never ends in the middle of a character when the input is
// valid UTF-8 as a whole.
//
// A StopStrings is for one generation; Reset reuses it.
type StopStrings struct {
	stops   []string
	pending string // received, not yet emitted
	stopped bool
	matched string
}

// NewStopStrings returns a matcher for stops; empty and repeated strings are
// ignored (an empty stop string would end every generation before it began).
// With no stop strings at all, Feed passes text through, only holding back
// incomplete UTF-8.
func NewStopStrings(stops []string) *StopStrings {
	m := &StopStrings{}
	for _, s := range stops {
		if s == "" {
			continue
		}
		dup := false
		for _, t := range m.stops {
			dup = dup || t == s
		}
		if !dup {
			m.stops = append(m.stops, s)
		}
	}
	return m
}

// Feed takes the next piece of generated text and returns the text that is
// now safe to show. stopped is true once a stop string has been found; emit
// then holds the text up to (not including) it, and every later call
// returns "", true.
func (m *StopStrings) Feed(piece string) (emit string, stopped bool) {
	if m.stopped {
		return "", true
	}
	text := m.pending + piece
	if at, stop, ok := m.firstMatch(text); ok {
		m.stopped, m.matched, m.pending = true, stop, ""
		return text[:at], true
	}
	hold := max(m.stopPrefixTail(text), partialRuneTail(text))
	cut := len(text) - hold
	m.pending = text[cut:]
	return text[:cut], false
}

// Flush returns the text still held back, for when generation ends for
// another reason (a stop token, the length limit). It returns "" after a
// stop string was found.
func (m *StopStrings) Flush() string {
	p := m.pending
	m.pending = ""
	return p
}

// Stopped reports whether a stop string has been found.
func (m *StopStrings) Stopped() bool { return m.stopped }

// Matched returns the stop string that ended generation, "" if none did.
func (m *StopStrings) Matched() string { return m.matched }

// Reset forgets all text and any hit, keeping the stop strings.
func (m *StopStrings) Reset() {
	m.pending, m.stopped, m.matched = "", false, ""
}

// firstMatch finds the occurrence of a stop string in text that ends first,
// the longer one on a tie. Held-back text never contains a whole stop string,
// so any occurrence found here ends in the newest piece.
func (m *StopStrings) firstMatch(text string) (at int, stop string, ok bool) {
	bestEnd := -1
	for _, s := range m.stops {
		// For one string the earliest start is also the earliest end.
		i := strings.Index(text, s)
		if i < 0 {
			continue
		}
		end := i + len(s)
		if bestEnd < 0 || end < bestEnd || (end == bestEnd && i < at) {
			at, stop, bestEnd = i, s, end
		}
	}
	return at, stop, bestEnd >= 0
}

// stopPrefixTail returns the length of the longest suffix of text that is a
// proper prefix of some stop string: the text that must wait for more.
func (m *StopStrings) stopPrefixTail(text string) int {
	best := 0
	for _, s := range m.stops {
		for n := min(len(s)-1, len(text)); n > best; n-- {
			if strings.HasSuffix(text, s[:n]) {
				best = n
				break
			}
		}
	}
	return best
}

// partialRuneTail returns the length of an incomplete UTF-8 sequence at the
// end of text (a leading byte and fewer continuation bytes than it
// announces), 0 if there is none. Invalid bytes are not held: no later
// byte could make them valid.
func partialRuneTail(text string) int {
	for i := len(text) - 1; i >= 0 && i >= len(text)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(text[i]) {
			if !utf8.FullRuneInString(text[i:]) {
				return len(text) - i
			}
			return 0
		}
	}
	return 0
}
