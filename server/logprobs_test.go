package server

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Streamed logprobs are the whole answer's, cut into chunks: at
// temperature 0 the entries of every chunk of every choice, put together,
// equal the unstreamed answer's, for chat and completions and for n = 2.
// An alternative in top_logprobs has no top_logprobs of its own, as in
// OpenAI's answers.
func TestServeStreamedLogprobs(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, plain)
	msgs := []map[string]string{{"role": "user", "content": "Tell me a story"}}
	const tokens, top = 7, 3

	type chatEntry struct {
		Token       string            `json:"token"`
		Logprob     float64           `json:"logprob"`
		Bytes       []int             `json:"bytes"`
		TopLogprobs []json.RawMessage `json:"top_logprobs"`
	}
	type chatChoice struct {
		Index    int `json:"index"`
		Logprobs *struct {
			Content []chatEntry `json:"content"`
		} `json:"logprobs"`
	}
	body := map[string]any{"messages": msgs, "max_tokens": tokens, "temperature": 0, "ignore_eos": true, "logprobs": true, "top_logprobs": top, "n": 2}
	whole := decode[struct{ Choices []chatChoice }](t, postOK(t, ts, "/v1/chat/completions", body))
	body["stream"] = true
	events, err := sseEvents(strings.NewReader(string(postOK(t, ts, "/v1/chat/completions", body))))
	if err != nil {
		t.Fatal(err)
	}
	streamed := map[int][]chatEntry{}
	for _, ev := range events {
		if ev == "[DONE]" {
			continue
		}
		for _, c := range decode[struct{ Choices []chatChoice }](t, []byte(ev)).Choices {
			if c.Logprobs != nil {
				streamed[c.Index] = append(streamed[c.Index], c.Logprobs.Content...)
			}
		}
	}
	if len(whole.Choices) != 2 {
		t.Fatalf("%d choices for n=2", len(whole.Choices))
	}
	for _, c := range whole.Choices {
		got := c.Logprobs.Content
		if len(got) != tokens || !reflect.DeepEqual(streamed[c.Index], got) {
			t.Fatalf("choice %d: streamed %+v, whole %+v", c.Index, streamed[c.Index], got)
		}
		for _, e := range got {
			if len(e.TopLogprobs) != top {
				t.Fatalf("%d alternatives, want %d: %+v", len(e.TopLogprobs), top, e)
			}
			for _, alt := range e.TopLogprobs {
				var keys map[string]json.RawMessage
				json.Unmarshal(alt, &keys)
				if _, has := keys["top_logprobs"]; has || len(keys) != 3 {
					t.Fatalf("an alternative carries %s, want token, logprob and bytes only", alt)
				}
			}
		}
	}

	type completionChoice struct {
		Index    int                 `json:"index"`
		Text     string              `json:"text"`
		Logprobs *completionLogprobs `json:"logprobs"`
	}
	// Greedy, then sampled: the random model writes byte tokens that end
	// inside characters or form none (U+FFFD in the text), which the
	// offsets must step over. The last run is the greedy one again, with
	// a stop string taken from its middle.
	var greedy completionChoice
	for seed := range 7 {
		temp := min(seed%6, 1)
		cbody := map[string]any{"prompt": "Once", "max_tokens": 12, "temperature": temp, "seed": seed % 6, "ignore_eos": true, "logprobs": 2}
		stop := ""
		if seed == 6 {
			runes := []rune(greedy.Text)
			stop = string(runes[len(runes)/2 : len(runes)/2+2])
			cbody["stop"] = stop
		}
		cw := decode[struct{ Choices []completionChoice }](t, postOK(t, ts, "/v1/completions", cbody)).Choices[0]
		cbody["stream"] = true
		events, err = sseEvents(strings.NewReader(string(postOK(t, ts, "/v1/completions", cbody))))
		if err != nil {
			t.Fatal(err)
		}
		var cs completionLogprobs
		text := ""
		for _, ev := range events {
			if ev == "[DONE]" {
				continue
			}
			for _, c := range decode[struct{ Choices []completionChoice }](t, []byte(ev)).Choices {
				text += c.Text
				if l := c.Logprobs; l != nil {
					cs.Tokens = append(cs.Tokens, l.Tokens...)
					cs.TokenLogprobs = append(cs.TokenLogprobs, l.TokenLogprobs...)
					cs.TopLogprobs = append(cs.TopLogprobs, l.TopLogprobs...)
					cs.TextOffset = append(cs.TextOffset, l.TextOffset...)
				}
			}
		}
		if text != cw.Text || !reflect.DeepEqual(&cs, cw.Logprobs) || (stop == "" && len(cs.Tokens) != 12) {
			t.Fatalf("seed %d: streamed %q %+v, whole %q %+v", seed, text, cs, cw.Text, cw.Logprobs)
		}
		if seed == 0 {
			greedy = cw
		}
		if stop != "" {
			// The text ends before the stop string; its tokens are the
			// greedy run's first ones, offsets and all, the last one
			// (which completes the stop string) reaching past the text.
			g := greedy.Logprobs
			n := len(cs.Tokens)
			if want, _, _ := strings.Cut(greedy.Text, stop); cw.Text != want || n == 0 || n >= 12 ||
				!reflect.DeepEqual(cs.Tokens, g.Tokens[:n]) || !reflect.DeepEqual(cs.TextOffset, g.TextOffset[:n]) {
				t.Fatalf("stop %q: %q %+v, greedy %q %+v", stop, cw.Text, cs, greedy.Text, g)
			}
			if last := cs.TextOffset[n-1]; last+utf8.RuneCountInString(cs.Tokens[n-1]) <= len([]rune(cw.Text)) {
				t.Fatalf("stop %q: the last token %q (which ends the stop string) at %d, inside %q", stop, cs.Tokens[n-1], last, cw.Text)
			}
			checkOffsets(t, greedy.Text, cs.Tokens, cs.TextOffset)
			continue
		}
		checkOffsets(t, cw.Text, cs.Tokens, cs.TextOffset)
		if temp > 0 {
			continue
		}
		// Greedy: each chosen token is among its two alternatives, with
		// its own logprob (two alternatives of one text share a key,
		// hence 1 or 2, and the key's value is either's).
		for i, alts := range cs.TopLogprobs {
			lp, ok := alts[cs.Tokens[i]]
			if len(alts) < 1 || len(alts) > 2 || !ok || lp != cs.TokenLogprobs[i] && len(alts) == 2 {
				t.Fatalf("token %d %q (%v): alternatives %v", i, cs.Tokens[i], cs.TokenLogprobs[i], alts)
			}
		}
	}
}

// checkOffsets holds text_offset to OpenAI's meaning: where each token's
// text starts in the choice's text, in characters. The offsets never go
// back nor past the text's end, and a token whose bytes are whole
// characters is found at its offset (one that splits a character is
// listed with U+FFFD; its bytes start at the offset of the character it
// begins, which the next check covers).
func checkOffsets(t *testing.T, text string, tokens []string, offsets []int) {
	t.Helper()
	runes := []rune(text)
	for i, tok := range tokens {
		off := offsets[i]
		if off < 0 || off > len(runes) || (i > 0 && off < offsets[i-1]) {
			t.Fatalf("token %d %q: offset %d (before it %v) in %q (%d characters)", i, tok, off, offsets[:i], text, len(runes))
		}
		if !strings.ContainsRune(tok, utf8.RuneError) && !strings.HasPrefix(string(runes[off:]), tok) {
			t.Fatalf("token %d %q is not at offset %d of %q", i, tok, off, text)
		}
	}
}

// textOffsets against a reference on random texts cut at random bytes
// into tokens: the text is built from units (a character of one to four
// bytes, or a byte that starts none, always followed by an ASCII letter so
// that no two of them merge into one U+FFFD), each of which is one
// character of the text the Decoder streams; a token starts at the unit
// its first byte is in (the text's end for an empty piece).
func TestTextOffsetsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 3))
	chars := []rune{'a', ' ', 'é', 'ß', '€', '中', '😀', '𝄞'}
	invalid := []byte{0x80, 0xbf, 0xc0, 0xe2, 0xf0, 0xf4, 0xff}
	for trial := range 2000 {
		var text []byte
		var unitOf []int // the unit each byte of text is in
		units := 0
		add := func(b []byte) {
			text = append(text, b...)
			for range b {
				unitOf = append(unitOf, units)
			}
			units++
		}
		for range 1 + rng.IntN(12) {
			if rng.IntN(4) == 0 {
				add([]byte{invalid[rng.IntN(len(invalid))]})
				add([]byte{'x'})
			} else {
				add([]byte(string(chars[rng.IntN(len(chars))])))
			}
		}
		o := textOffsets{at: 3}
		for i := 0; i <= len(text); {
			n := rng.IntN(5) // 0: an empty piece, as a control token's
			if i+n > len(text) {
				n = len(text) - i
			}
			want := 3 + units
			if i < len(text) {
				want = 3 + unitOf[i]
			}
			if n == 0 && i < len(text) && len(o.held) > 0 {
				want = o.at // an empty piece comes before the held character
			}
			o.token(string(text[i : i+n]))
			if got := o.of[len(o.of)-1]; got != want {
				t.Fatalf("trial %d: %q cut at %d+%d: offset %d, want %d", trial, text, i, n, got, want)
			}
			if i += n; i == len(text) && n == 0 {
				break
			}
		}
		if o.at != 3+units || len(o.held) != 0 {
			t.Fatalf("trial %d: %q: at %d held %q, want %d characters", trial, text, o.at, o.held, 3+units)
		}
	}
}
