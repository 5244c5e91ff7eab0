package tokenizer

// Presets whose regexes llama.cpp runs through std::regex rather than a
// hand-written scanner (deepseek-llm, deepseek-coder, youtu, default). Two
// facts about that path decide the results and are reproduced here:
//
//   - A regex with \p{..} runs on "collapsed" text where every non-ASCII
//     codepoint becomes one byte standing for its category (whitespace first,
//     then L, N, P, M, S, else "other"), and \p{X} becomes that byte plus the
//     ASCII members of X. So \p{Lu} matches any letter, lowercase included.
//   - A regex without \p{..} runs on the codepoints, with non-ASCII
//     whitespace replaced by U+000B so that \s sees it; literal ranges that
//     contain whitespace therefore never match it.
//
// Each regex splits every piece of the previous one: matches and the
// stretches between them (however many characters) become pieces.

// matcher returns the end of the match that starts at pos in [pos,e), or a
// value <= pos when the pattern does not match there.
type matcher func(t *ptext, pos, e int) int

// regexPass turns a matcher into a pass with std::regex_iterator's leftmost,
// non-overlapping search.
func regexPass(match matcher) pass {
	return func(t *ptext, s, e int, out []int32) []int32 {
		gap := s
		for pos := s; pos < e; {
			m := match(t, pos, e)
			if m <= pos {
				pos++
				continue
			}
			if pos > gap {
				out = append(out, int32(pos))
			}
			out = append(out, int32(m))
			pos, gap = m, m
		}
		if e > gap {
			out = append(out, int32(e))
		}
		return out
	}
}

// class is a character class of a collapsed or wide regex.
type class func(c rune, f uint8) bool

// Collapsed classes: whitespace never belongs to a category class, and for
// ASCII the category equals the ASCII members llama.cpp adds.
func collapsed(want uint8) class {
	return func(_ rune, f uint8) bool { return !isWS(f) && cat(f) == want }
}

var (
	cLetter = collapsed(catLetter)
	cNumber = collapsed(catNumber)
	cPunct  = collapsed(catPunct)
)

type cpRange struct{ lo, hi rune }

// wide is a literal class of a regex run on codepoints.
func wide(ranges []cpRange) class {
	return func(c rune, f uint8) bool {
		if c > 0x7F && isWS(f) {
			return false // seen by the regex as U+000B
		}
		for _, r := range ranges {
			if c >= r.lo && c <= r.hi {
				return true
			}
		}
		return false
	}
}

func (k class) at(t *ptext, i, e int) bool { return i < e && k(t.cps[i], t.fl[i]) }

// run matches k+.
func run(k class) matcher {
	return func(t *ptext, pos, e int) int {
		for pos < e && k(t.cps[pos], t.fl[pos]) {
			pos++
		}
		return pos
	}
}

// one matches a single character of k.
func one(k class) matcher {
	return func(t *ptext, pos, e int) int {
		if k(t.cps[pos], t.fl[pos]) {
			return pos + 1
		}
		return pos
	}
}

// spaceRun matches \s?k+.
func spaceRun(k class) matcher {
	r := run(k)
	return func(t *ptext, pos, e int) int {
		if isWS(t.fl[pos]) && k.at(t, pos+1, e) {
			return r(t, pos+1, e)
		}
		return r(t, pos, e)
	}
}

// newline matches [\r\n].
func newline(t *ptext, pos, e int) int {
	if c := t.cps[pos]; c == '\r' || c == '\n' {
		return pos + 1
	}
	return pos
}

// trailingSpace is the pass of \s+$: the whitespace at the end of a piece.
func trailingSpace(t *ptext, s, e int, out []int32) []int32 {
	w := e
	for w > s && isWS(t.fl[w-1]) {
		w--
	}
	if w > s && w < e {
		out = append(out, int32(w))
	}
	return append(out, int32(e))
}

// CJK-ish ranges of deepseek's [一-龥ࠀ-一가-퟿]+.
var deepseekCJK = wide([]cpRange{{0x4E00, 0x9FA5}, {0x0800, 0x4E00}, {0xAC00, 0xD7FF}})

// deepseek-llm's letter class, a long literal list of Latin, Greek, Cyrillic,
// Armenian, Georgian, Cherokee ... ranges (llama-vocab.cpp).
var deepseekLetters = wide([]cpRange{
	{0x41, 0x5A}, {0x61, 0x7A}, {0xB5, 0xB5}, {0xC0, 0xD6}, {0xD8, 0xF6}, {0xF8, 0x1BA}, {0x1BC, 0x1BF},
	{0x1C4, 0x293}, {0x295, 0x2AF}, {0x370, 0x373}, {0x376, 0x377}, {0x37B, 0x37D}, {0x37F, 0x37F},
	{0x386, 0x386}, {0x388, 0x38A}, {0x38C, 0x38C}, {0x38E, 0x3A1}, {0x3A3, 0x3F5}, {0x3F7, 0x481},
	{0x48A, 0x52F}, {0x531, 0x556}, {0x10A0, 0x10C5}, {0x13A0, 0x13F5}, {0x13F8, 0x13FD}, {0x1C90, 0x1CBA},
	{0x1CBD, 0x1CBF}, {0x1D00, 0x1D2B}, {0x1D6B, 0x1D77}, {0x1D79, 0x1D9A}, {0x1E00, 0x1F15}, {0x1F18, 0x1F1D},
	{0x1F20, 0x1F45}, {0x1F48, 0x1F4D}, {0x1F50, 0x1F57}, {0x1F59, 0x1F59}, {0x1F5B, 0x1F5B}, {0x1F5D, 0x1F5D},
	{0x1F5F, 0x1F7D}, {0x1F80, 0x1FB4}, {0x1FB6, 0x1FBC}, {0x1FBE, 0x1FBE}, {0x1FC2, 0x1FC4}, {0x1FC6, 0x1FCC},
	{0x1FD0, 0x1FD3}, {0x1FD6, 0x1FDB}, {0x1FE0, 0x1FEC}, {0x1FF2, 0x1FF4}, {0x1FF6, 0x1FFC}, {0x2102, 0x2102},
	{0x2107, 0x2107}, {0x210A, 0x2113}, {0x2115, 0x2115}, {0x2119, 0x211D}, {0x2124, 0x2124}, {0x2126, 0x2126},
	{0x2128, 0x2128}, {0x212A, 0x212D}, {0x212F, 0x2134}, {0x2139, 0x2139}, {0x213C, 0x213F}, {0x2145, 0x2149},
	{0x214E, 0x214E}, {0x2183, 0x2184}, {0x2C00, 0x2C7B}, {0x2C7E, 0x2CE4}, {0x2CEB, 0x2CEE}, {0x2CF2, 0x2CF3},
	{0xA640, 0xA66D}, {0xA680, 0xA69B}, {0xA722, 0xA76F}, {0xA771, 0xA787}, {0xA78B, 0xA78E}, {0xAB70, 0xABBF},
	{0xFB00, 0xFB06}, {0xFB13, 0xFB17}, {0xFF21, 0xFF3A}, {0xFF41, 0xFF5A}, {0x10400, 0x1044F}, {0x104B0, 0x104D3},
	{0x104D8, 0x104FB}, {0x10C80, 0x10CB2}, {0x10CC0, 0x10CF2}, {0x118A0, 0x118DF}, {0x1E900, 0x1E943},
})

// deepseek-llm's punctuation class [!-/:-~！-／：-～‘-‟　-。] (note that :-~
// spans the ASCII letters too).
var deepseekPunct = wide([]cpRange{
	{0x21, 0x2F}, {0x3A, 0x7E}, {0xFF01, 0xFF0F}, {0xFF1A, 0xFF5E}, {0x2018, 0x201F}, {0x3000, 0x3002},
})

// deepseek-llm: [\r\n] | \s?[letters]+ | \s?[punct]+ | \s+$ | [CJK]+ | \p{N}+
var deepseekLLMPasses = []pass{
	regexPass(newline),
	regexPass(spaceRun(deepseekLetters)),
	regexPass(spaceRun(deepseekPunct)),
	trailingSpace,
	regexPass(run(deepseekCJK)),
	regexPass(run(cNumber)),
}

// deepseek-coder: [\r\n] | \s?\p{L}+ | \s?\p{P}+ | [CJK]+ | \p{N}
var deepseekCoderPasses = []pass{
	regexPass(newline),
	regexPass(spaceRun(cLetter)),
	regexPass(spaceRun(cPunct)),
	regexPass(run(deepseekCJK)),
	regexPass(one(cNumber)),
}

// youtu's first regex: runs of Hangul, of CJK punctuation, of Bopomofo, of
// Han and kana; the alternatives' classes are disjoint.
var youtuScripts = []class{
	wide([]cpRange{{0xAC00, 0xD7A3}, {0x3131, 0x318E}}),
	wide([]cpRange{{0xFF01, 0xFF01}, {0x2026, 0x2026}, {0x201C, 0x201D}, {0x2018, 0x2019}, {0x2014, 0x2014},
		{0xFF1A, 0xFF1B}, {0xFF0C, 0xFF0C}, {0x3001, 0x303F}, {0xFE30, 0xFE4F}}),
	wide([]cpRange{{0x3105, 0x312F}}),
	wide([]cpRange{{0x4E00, 0x9FA5}, {0x3040, 0x309F}, {0x30A0, 0x30FF}}),
}

func youtuScript(t *ptext, pos, e int) int {
	for _, k := range youtuScripts {
		if k(t.cps[pos], t.fl[pos]) {
			return run(k)(t, pos, e)
		}
	}
	return pos
}

// youtuMain is youtu's second regex after collapsing, where the upper- and
// lowercase letter classes both become "any letter or mark" (LM):
//
//	X?LM*LM+C? | X?LM+LM*C? | \p{N} | ' ?Q+[\r\n/]*' | \s*[\r\n]+ | \s+(?!\S) | \s+
//
// with X = [^\r\n\p{L}\p{N}], C a case-insensitive contraction and
// Q = [^\s\p{L}\p{N}]. Both letter alternatives reduce to X?LM+C?.
func youtuMain(t *ptext, pos, e int) int {
	cps, fl := t.cps, t.fl
	lm := func(i int) bool {
		if i >= e || isWS(fl[i]) {
			return false
		}
		c := cat(fl[i])
		return c == catLetter || c == catMark
	}
	c0, f0 := cps[pos], fl[pos]
	x0 := c0 != '\r' && c0 != '\n' && !cLetter(c0, f0) && !cNumber(c0, f0)
	start := -1
	if x0 && lm(pos+1) {
		start = pos + 1
	} else if lm(pos) {
		start = pos
	}
	if start >= 0 {
		j := start
		for lm(j) {
			j++
		}
		if j < e {
			j += contraction(cps, j, e, true)
		}
		return j
	}
	if cNumber(c0, f0) {
		return pos + 1
	}
	q := func(i int) bool {
		return i < e && !isWS(fl[i]) && !cLetter(cps[i], fl[i]) && !cNumber(cps[i], fl[i])
	}
	if q(pos) || (c0 == ' ' && q(pos+1)) {
		j := pos
		if c0 == ' ' {
			j++
		}
		for q(j) {
			j++
		}
		for j < e && (cps[j] == '\r' || cps[j] == '\n' || cps[j] == '/') {
			j++
		}
		return j
	}
	return whitespaceTail(t, pos, e)
}

var youtuPasses = []pass{regexPass(youtuScript), regexPass(youtuMain)}

// llama.cpp's default BPE regexes (tokenizer.ggml.pre = "default" or absent):
// [\p{P}\$\+<=>\^~\|]+ | GPT-2's regex | \p{N}+ | [0-9][0-9][0-9]
func defaultPunct(c rune, f uint8) bool {
	if c < 0x80 {
		switch c {
		case '$', '+', '<', '=', '>', '^', '~', '|':
			return true
		}
	}
	return cPunct(c, f)
}

func threeDigits(t *ptext, pos, e int) int {
	if pos+3 > e {
		return pos
	}
	for i := pos; i < pos+3; i++ {
		if c := t.cps[i]; c < '0' || c > '9' {
			return pos
		}
	}
	return pos + 3
}

var defaultPasses = []pass{
	regexPass(run(defaultPunct)),
	splitGPT2,
	regexPass(run(cNumber)),
	regexPass(threeDigits),
}
