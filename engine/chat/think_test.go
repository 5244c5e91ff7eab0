package chat

import (
	"math/rand"
	"strings"
	"testing"
)

// splitWhole is the one-shot reference for ThinkSplitter: the same rules
// applied to the complete output with plain string functions.
func splitWhole(text string, startsInReasoning bool) (reasoning, content string) {
	rest := text
	if !startsInReasoning {
		t := strings.TrimLeft(text, asciiSpace)
		if !strings.HasPrefix(t, thinkOpen) {
			return "", text
		}
		rest = t[len(thinkOpen):]
	}
	before, after, closed := strings.Cut(rest, thinkClose)
	if !closed {
		return strings.Trim(rest, asciiSpace), ""
	}
	return strings.Trim(before, asciiSpace), strings.TrimLeft(after, asciiSpace)
}

// feedPieces streams pieces through a splitter and joins its output.
func feedPieces(pieces []string, startsInReasoning bool) (reasoning, content string) {
	s := NewThinkSplitter(startsInReasoning)
	var r, c strings.Builder
	for _, p := range pieces {
		dr, dc := s.Feed(p)
		r.WriteString(dr)
		c.WriteString(dc)
	}
	dr, dc := s.Flush()
	r.WriteString(dr)
	c.WriteString(dc)
	return r.String(), c.String()
}

func TestSplitWholeMeaning(t *testing.T) {
	// The reference's rules on the shapes models really produce.
	cases := []struct {
		text         string
		starts       bool
		wantR, wantC string
	}{
		{"<think>\nplan it\n</think>\n\nThe answer.", false, "plan it", "The answer."},
		{"plan it\n</think>\n\nThe answer.", true, "plan it", "The answer."},
		{"  The answer, no thinking.", false, "", "  The answer, no thinking."},
		{"<think>\nstill thinking", false, "still thinking", ""},
		{"answer mentions <think> later", false, "", "answer mentions <think> later"},
		{"<think></think>answer</think>x", false, "", "answer</think>x"},
		{"", true, "", ""},
	}
	for _, c := range cases {
		r, ct := splitWhole(c.text, c.starts)
		if r != c.wantR || ct != c.wantC {
			t.Errorf("splitWhole(%q, %v) = %q, %q; want %q, %q", c.text, c.starts, r, ct, c.wantR, c.wantC)
		}
	}
}

// TestThinkSplitterEverySplit feeds each sample in two pieces cut at every
// byte position, and one byte at a time, so every tag is split everywhere.
func TestThinkSplitterEverySplit(t *testing.T) {
	samples := []string{
		"<think>\nLet me add: 2+2 = 4.\n</think>\n\nIt is 4.",
		"\n <think>reason</think>answer",
		"Reasoning opened by the prompt\n\n</think>\n\nAnswer ü∑.",
		"<think>\nno close, the stream was cut  \n",
		"Plain answer without tags, with < and </ and </thin and <thi.",
		"<thin k>not a tag</think>",
		"<think><think>nested?</think></think>",
		"<think>a </thin> b </think >c</think>\n\nd",
		"   ",
		"<think>\n\n</think>\n\n",
		"😀<think>late</think>",
	}
	for _, text := range samples {
		for _, starts := range []bool{false, true} {
			wr, wc := splitWhole(text, starts)
			for cut := 0; cut <= len(text); cut++ {
				r, c := feedPieces([]string{text[:cut], text[cut:]}, starts)
				if r != wr || c != wc {
					t.Fatalf("%q starts=%v cut at %d: got %q, %q; want %q, %q", text, starts, cut, r, c, wr, wc)
				}
			}
			bytes := make([]string, len(text))
			for i := 0; i < len(text); i++ {
				bytes[i] = text[i : i+1]
			}
			if r, c := feedPieces(bytes, starts); r != wr || c != wc {
				t.Fatalf("%q starts=%v byte by byte: got %q, %q; want %q, %q", text, starts, r, c, wr, wc)
			}
		}
	}
}

// TestThinkSplitterRandom streams random outputs built from tag fragments,
// whitespace and text, cut into random pieces.
func TestThinkSplitterRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	parts := []string{"<think>", "</think>", "<", "</", "<th", "</think", "think>", "\n", " ", "\t", "word", "ü", "😀", "x>", "<think", "\n\n"}
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for k := rng.Intn(12); k >= 0; k-- {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		text := b.String()
		var pieces []string
		for rest := text; rest != ""; {
			k := 1 + rng.Intn(min(len(rest), 6))
			pieces = append(pieces, rest[:k])
			rest = rest[k:]
		}
		starts := rng.Intn(2) == 0
		wr, wc := splitWhole(text, starts)
		if r, c := feedPieces(pieces, starts); r != wr || c != wc {
			t.Fatalf("%q in %q starts=%v: got %q, %q; want %q, %q", text, pieces, starts, r, c, wr, wc)
		}
	}
}

// TestThinkSplitterStreamsEarly checks that text is not held longer than
// a possible tag needs: reasoning and answer arrive while they stream.
func TestThinkSplitterStreamsEarly(t *testing.T) {
	s := NewThinkSplitter(false)
	if r, c := s.Feed("<think>\nfirst thoughts"); r != "first thoughts" || c != "" {
		t.Fatalf("reasoning not streamed: %q, %q", r, c)
	}
	if !s.InReasoning() {
		t.Fatal("InReasoning false inside the block")
	}
	if r, c := s.Feed(" more</th"); r != " more" || c != "" {
		t.Fatalf("got %q, %q; want the text before the partial tag", r, c)
	}
	if r, c := s.Feed("ink>\n\nAnswer"); r != "" || c != "Answer" {
		t.Fatalf("got %q, %q after the close tag", r, c)
	}
	if s.InReasoning() {
		t.Fatal("InReasoning true after </think>")
	}
	plain := NewThinkSplitter(false)
	if r, c := plain.Feed("Hello"); r != "" || c != "Hello" {
		t.Fatalf("model without thinking: got %q, %q", r, c)
	}
}
