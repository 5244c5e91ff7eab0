package grammar

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func mustParse(t testing.TB, src string) *Grammar {
	t.Helper()
	g, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestParseAndMatch(t *testing.T) {
	for _, c := range []struct {
		src     string
		yes, no []string
	}{
		{`root ::= "yes" | "no"`, []string{"yes", "no"}, []string{"", "y", "yesno", "maybe"}},
		{`root ::= [0-9]+ ("." [0-9]{1,3})?`, []string{"0", "123", "1.5", "1.500"}, []string{"", ".5", "1.", "1.5000", "a"}},
		{`root ::= "a"{2,} "b"{0,2}`, []string{"aa", "aaab", "aabb"}, []string{"a", "aabbb", "b"}},
		{`root ::= "(" root ")" | ""   # nested parentheses`, []string{"", "()", "((()))"}, []string{"(", "())", ")("}},
		{`root ::= [^"\\]* "\""`, []string{`abc"`, `é漢😀"`, `"`}, []string{`\"`, `abc`, "a\"b\""}},
		{`root ::= . .`, []string{"ab", "é漢", "😀x"}, []string{"a", "abc", "\xff\xfe"}},
		{"root ::= x y\nx ::= \"\\x41\" | \"\\u00e9\"\ny ::= [\\U0001F600-\\U0001F64F]", []string{"A😀", "é🙏"}, []string{"A", "😀", "B😀", "A🚀"}},
		{`root ::= list
list ::= item ("," item)*
item ::= [a-z]+`, []string{"a", "ab,c,def"}, []string{"", "a,", ",a", "A"}},
		{`root ::= ("a" | "b" ("c" | "d"))* "e"`, []string{"e", "abce", "bdbcae"}, []string{"", "bd", "be"}},
	} {
		g := mustParse(t, c.src)
		for _, s := range c.yes {
			if ok, err := Match(g, s); !ok || err != nil {
				t.Errorf("%s: %q refused (%v)", c.src, s, err)
			}
		}
		for _, s := range c.no {
			if ok, _ := Match(g, s); ok {
				t.Errorf("%s: %q accepted", c.src, s)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for src, says := range map[string]string{
		`root ::= a`:              "undefined",
		`root ::= root "x" | "y"`: "left-recursive",
		"root ::= a\na ::= b? root \"x\"\nb ::= \"b\"": "left-recursive",
		`root ::= "abc`:                  "unclosed string",
		`root ::= [abc`:                  "unclosed [",
		`root ::= "a"{3,1}`:              "repetition",
		`root ::= [z-a]`:                 "backwards",
		`other ::= "x"`:                  `no rule "root"`,
		"root ::= \"a\"\nroot ::= \"b\"": "twice",
		`root ::= ( "a"`:                 ")",
		`root ::= @`:                     "unexpected",
	} {
		if _, err := Parse(src); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v, want an error saying %q", src, err, says)
		}
	}
}

// Character classes become the UTF-8 sequences of exactly their
// characters: checked on random classes against every kind of character.
func TestUTF8Classes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	probe := []rune{0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF}
	for range 2000 {
		probe = append(probe, rune(rng.IntN(0x110000)))
	}
	for range 40 {
		var rs []runeRange
		for range 1 + rng.IntN(4) {
			lo := rune(rng.IntN(0x110000))
			if rng.IntN(2) == 0 {
				lo = rune(rng.IntN(0x900))
			}
			rs = append(rs, runeRange{lo, lo + rune(rng.IntN(0x3000))})
		}
		if rng.IntN(2) == 0 {
			rs = complement(rs)
		}
		seqs := utf8Sequences(rs)
		in := func(r rune) bool {
			for _, x := range rs {
				if r >= x.lo && r <= x.hi {
					return true
				}
			}
			return false
		}
		for _, r := range probe {
			if r >= 0xD800 && r <= 0xDFFF {
				continue
			}
			b := []byte(string(r))
			got := false
			for _, s := range seqs {
				if len(s) != len(b) {
					continue
				}
				ok := true
				for i := range s {
					ok = ok && b[i] >= s[i].lo && b[i] <= s[i].hi
				}
				got = got || ok
			}
			if got != in(r) {
				t.Fatalf("class %v: U+%04X in the class %v, by the sequences %v", rs, r, in(r), got)
			}
		}
		// No sequence encodes anything but valid UTF-8 (no surrogates,
		// no overlong forms).
		for _, s := range seqs {
			b := make([]byte, len(s))
			for range 20 {
				for i := range s {
					b[i] = s[i].lo + byte(rng.IntN(int(s[i].hi-s[i].lo)+1))
				}
				if !utf8.Valid(b) {
					t.Fatalf("sequence %v makes invalid UTF-8 % x", s, b)
				}
			}
		}
	}
}

// A token mask is exactly the tokens whose whole piece the grammar takes
// from the state, on a vocabulary of random pieces (bytes that split
// characters included), all along random walks through the grammar.
func TestMaskMatchesBruteForce(t *testing.T) {
	g := mustParse(t, `root ::= "{" ws pair (ws "," ws pair)* ws "}"
pair ::= str ws ":" ws (str | num)
str ::= "\"" ([^"\\] | "\\" ["\\n])* "\""
num ::= "-"? [0-9]+
ws ::= [ \n]?`)
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"{", "}", "\"", ":", ",", " ", "\n", "-", "0", "7", "a", "é", "漢", "\\", "n", "\xc3", "\xa9", "😀", "x"}
	var pieces []string
	for i := 0; i < 400; i++ {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		pieces = append(pieces, b.String())
	}
	pieces = append(pieces, "", "") // control tokens
	eog := []int32{int32(len(pieces) - 1)}
	v := NewVocab(len(pieces), func(id int32) string { return pieces[id] }, eog)
	brute := newMachine(g, NewVocab(0, nil, nil))
	start, err := brute.start()
	if err != nil {
		t.Fatal(err)
	}
	prefixOK := func(text string) bool {
		s, err := brute.feed(start, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return s != dead
	}
	for walk := range 30 {
		mt, err := NewMatcher(g, v)
		if err != nil {
			t.Fatal(err)
		}
		text := ""
		for step := 0; step < 40; step++ {
			mask, err := mt.Allowed()
			if err != nil {
				t.Fatal(err)
			}
			var allowed []int32
			for id := range int32(len(pieces)) {
				on := mask[id>>6]&(1<<(id&63)) != 0
				want := false
				if pieces[id] != "" {
					want = prefixOK(text + pieces[id])
				} else if id == eog[0] {
					ok, _ := Match(g, text)
					want = ok
				}
				if on != want {
					t.Fatalf("walk %d after %q: token %d (%q) allowed %v, brute force %v", walk, text, id, pieces[id], on, want)
				}
				if on {
					allowed = append(allowed, id)
				}
			}
			if len(allowed) == 0 {
				break
			}
			id := allowed[rng.IntN(len(allowed))]
			if err := mt.Accept(id); err != nil {
				t.Fatal(err)
			}
			if id == eog[0] {
				break
			}
			text += pieces[id]
		}
	}
}

// A grammar that keeps making new parser states (nesting without end)
// is refused once it has made too many, rather than grow without bound.
func TestTooManyStates(t *testing.T) {
	g := mustParse(t, `root ::= "(" root ")" | ""`)
	mt, err := NewMatcher(g, NewVocab(0, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for i := 0; i < maxStates+10 && last == nil; i++ {
		last = mt.AcceptText("(")
	}
	if !errors.Is(last, ErrTooComplex) {
		t.Fatalf("after %d levels: %v", maxStates, last)
	}
}
