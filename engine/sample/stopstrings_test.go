package sample

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// refStop is the whole-text meaning of stop strings, written differently
// from the matcher: walk the end position forward one byte at a time and
// stop at the first position where some stop string ends (the longest such
// one on a tie). It returns the text to show and whether a stop was hit.
func refStop(text string, stops []string) (string, bool, string) {
	for end := 1; end <= len(text); end++ {
		best := ""
		for _, s := range stops {
			if s != "" && strings.HasSuffix(text[:end], s) && len(s) > len(best) {
				best = s
			}
		}
		if best != "" {
			return text[:end-len(best)], true, best
		}
	}
	return text, false, ""
}

// feedAll runs the matcher over pieces, checking at every step that what
// was shown so far is a prefix of the final answer (nothing is ever taken
// back) and that what is held back could still matter: part of a stop
// string or an unfinished UTF-8 character.
func feedAll(t *testing.T, stops []string, pieces []string, want string, wantStop bool, wantMatch string) {
	t.Helper()
	m := NewStopStrings(stops)
	var shown strings.Builder
	fed := ""
	stopped := false
	for _, p := range pieces {
		emit, st := m.Feed(p)
		fed += p
		shown.WriteString(emit)
		if !strings.HasPrefix(want, shown.String()) {
			t.Fatalf("stops %q pieces %q: shown %q, which is not a prefix of %q", stops, pieces, shown.String(), want)
		}
		if utf8.ValidString(fed) && !utf8.ValidString(emit) {
			t.Fatalf("stops %q pieces %q: emitted %q splits a character", stops, pieces, emit)
		}
		if st {
			stopped = true
			break
		}
		held := fed[shown.Len():]
		if held != "" && !heldForAReason(held, stops) {
			t.Fatalf("stops %q pieces %q: holds back %q for no reason", stops, pieces, held)
		}
	}
	if !stopped {
		shown.WriteString(m.Flush())
	}
	if shown.String() != want || stopped != wantStop || m.Stopped() != wantStop || m.Matched() != wantMatch {
		t.Fatalf("stops %q pieces %q: got %q stopped=%v matched=%q, want %q stopped=%v matched=%q",
			stops, pieces, shown.String(), stopped, m.Matched(), want, wantStop, wantMatch)
	}
	if stopped {
		if e, st := m.Feed("more text"); e != "" || !st {
			t.Fatalf("Feed after the stop returned %q, %v", e, st)
		}
		if f := m.Flush(); f != "" {
			t.Fatalf("Flush after the stop returned %q", f)
		}
	}
}

func heldForAReason(held string, stops []string) bool {
	for _, s := range stops {
		if len(held) < len(s) && strings.HasPrefix(s, held) {
			return true
		}
	}
	return len(held) < utf8.UTFMax && !utf8.FullRuneInString(held)
}

var stopCases = []struct {
	text  string
	stops []string
}{
	{"Hello world</s> and more", []string{"</s>"}},
	{"no stop here at all <", []string{"</s>"}},
	{"ends with a partial </", []string{"</s>"}},
	{"abcabd", []string{"abd"}},          // a false start right before the real one
	{"aaaab", []string{"aab"}},           // the match restarts inside held text
	{"xxabcdyy", []string{"abcd", "bc"}}, // the inner one ends first
	{"xxabcyy", []string{"abcd", "bc"}},  // the outer one never completes
	{"xxyzzz", []string{"xyz", "yz"}},    // same end: the longer one
	{"User: hi\nAssistant: yo", []string{"\nUser:", "\nAssistant:"}},
	{"<|im_end|><|im_start|>", []string{"<|im_start|>", "<|im_end|>"}},
	{"日本語のテキスト。終わり", []string{"。終"}},
	{"emoji 🙂 then 🛑 stop", []string{"🛑"}},
	{"mixed é and ü before ü!", []string{"ü!"}},
	{"repeat rererepeat", []string{"rerep"}},
	{"", []string{"x"}},
	{"plain text, no stops given", nil},
	{"empty stop ignored", []string{"", "ignored"}},
}

// Every way of cutting the text into two or three pieces (including cuts in
// the middle of a character) gives the whole-text answer, as does feeding
// it one byte at a time.
func TestStopStringsEverySplit(t *testing.T) {
	for _, c := range stopCases {
		want, wantStop, wantMatch := refStop(c.text, c.stops)
		n := len(c.text)
		for i := 0; i <= n; i++ {
			for j := i; j <= n; j++ {
				feedAll(t, c.stops, []string{c.text[:i], c.text[i:j], c.text[j:]}, want, wantStop, wantMatch)
			}
		}
		bytes := make([]string, n)
		for i := range n {
			bytes[i] = c.text[i : i+1]
		}
		feedAll(t, c.stops, bytes, want, wantStop, wantMatch)
	}
}

// Random texts over a small alphabet (so stop strings and near misses are
// frequent) with random stop sets and random cuts.
func TestStopStringsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	alphabet := []string{"a", "b", "c", "é", "語", "🙂"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 3000 {
		text := word(r.IntN(30))
		stops := make([]string, 1+r.IntN(3))
		for i := range stops {
			stops[i] = word(1 + r.IntN(4))
		}
		var pieces []string
		for rest := text; rest != ""; {
			k := min(len(rest), r.IntN(6))
			pieces = append(pieces, rest[:k])
			rest = rest[k:]
		}
		want, wantStop, wantMatch := refStop(text, stops)
		feedAll(t, stops, pieces, want, wantStop, wantMatch)
	}
}

func TestStopStringsReset(t *testing.T) {
	m := NewStopStrings([]string{"END"})
	if e, st := m.Feed("one END two"); e != "one " || !st {
		t.Fatalf("got %q, %v", e, st)
	}
	m.Reset()
	if m.Stopped() || m.Matched() != "" {
		t.Fatal("Reset kept the hit")
	}
	e, st := m.Feed("three EN")
	if e != "three " || st {
		t.Fatalf("after Reset: got %q, %v", e, st)
	}
	if f := m.Flush(); f != "EN" {
		t.Fatalf("Flush = %q, want the held-back \"EN\"", f)
	}
}
