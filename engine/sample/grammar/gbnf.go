package grammar

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parse compiles a grammar in GBNF, llama.cpp's notation, whose root rule
// is named root:
//
//	root   ::= "yes" | "no" | number
//	number ::= [0-9]+ ("." [0-9]{1,3})?   # comments run to the line's end
//
// Strings ("...") and character classes ([a-z], [^"\\], with \n \t \r \\
// \" \] \xHH \uHHHH \UHHHHHHHH escapes) stand for UTF-8 text; . is any
// character; ( ) groups; | separates alternatives; * + ? {m} {m,} {m,n}
// repeat. A rule's definition runs until the next "name ::=".
func Parse(src string) (*Grammar, error) { return parseRoot(src, "root") }

func parseRoot(src, root string) (*Grammar, error) {
	p := &parser{src: src, b: newBuilder()}
	if err := p.rules(); err != nil {
		return nil, err
	}
	return p.b.build(root, src)
}

type parser struct {
	src   string
	pos   int
	b     *builder
	depth int // groups open
}

// maxDepth bounds the nesting of groups.
const maxDepth = 200

func (p *parser) errorf(format string, args ...any) error {
	line := 1 + strings.Count(p.src[:p.pos], "\n")
	col := p.pos - strings.LastIndexByte(p.src[:p.pos], '\n')
	return fmt.Errorf("grammar: line %d, column %d: %s", line, col, fmt.Sprintf(format, args...))
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

// space skips blanks, newlines and comments.
func (p *parser) space() {
	for !p.eof() {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '#':
			for !p.eof() && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

func (p *parser) name() string {
	start := p.pos
	for !p.eof() && isNameByte(p.src[p.pos]) {
		p.pos++
	}
	return p.src[start:p.pos]
}

// atRuleStart reports whether "name ::=" starts here.
func (p *parser) atRuleStart() bool {
	save := p.pos
	defer func() { p.pos = save }()
	if p.name() == "" {
		return false
	}
	p.space()
	return strings.HasPrefix(p.src[p.pos:], "::=")
}

func (p *parser) rules() error {
	for {
		p.space()
		if p.eof() {
			return nil
		}
		name := p.name()
		if name == "" {
			return p.errorf("a rule name is expected, not %q", p.peek())
		}
		p.space()
		if !strings.HasPrefix(p.src[p.pos:], "::=") {
			return p.errorf("::= is expected after %s", name)
		}
		p.pos += 3
		i := p.b.rule(name)
		if p.b.rules[i].defined {
			return p.errorf("rule %s is defined twice", name)
		}
		alts, err := p.alternatives()
		if err != nil {
			return err
		}
		p.b.define(i, alts)
	}
}

func (p *parser) alternatives() ([][]item, error) {
	var alts [][]item
	for {
		seq, err := p.sequence()
		if err != nil {
			return nil, err
		}
		alts = append(alts, seq)
		p.space()
		if p.peek() != '|' {
			return alts, nil
		}
		p.pos++
	}
}

func (p *parser) sequence() ([]item, error) {
	var seq []item
	for {
		p.space()
		if p.eof() || p.peek() == '|' || p.peek() == ')' || p.atRuleStart() {
			return seq, nil
		}
		prim, err := p.primary()
		if err != nil {
			return nil, err
		}
		for {
			lo, hi, ok, err := p.repetition()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			prim = p.b.repeat(prim, lo, hi)
		}
		seq = append(seq, prim...)
	}
}

// repetition reads a postfix operator, if one follows.
func (p *parser) repetition() (lo, hi int, ok bool, err error) {
	switch p.peek() {
	case '*':
		p.pos++
		return 0, -1, true, nil
	case '+':
		p.pos++
		return 1, -1, true, nil
	case '?':
		p.pos++
		return 0, 1, true, nil
	case '{':
	default:
		return 0, 0, false, nil
	}
	end := strings.IndexByte(p.src[p.pos:], '}')
	if end < 0 {
		return 0, 0, false, p.errorf("unclosed {")
	}
	body := strings.ReplaceAll(p.src[p.pos+1:p.pos+end], " ", "")
	a, b, comma := strings.Cut(body, ",")
	lo, err = strconv.Atoi(a)
	if err != nil || lo < 0 {
		return 0, 0, false, p.errorf("bad repetition {%s}", body)
	}
	hi = lo
	if comma {
		hi = -1
		if b != "" {
			if hi, err = strconv.Atoi(b); err != nil || hi < lo {
				return 0, 0, false, p.errorf("bad repetition {%s}", body)
			}
		}
	}
	if lo > 1000 || hi > 1000 {
		return 0, 0, false, p.errorf("repetition {%s} is over 1000", body)
	}
	p.pos += end + 1
	return lo, hi, true, nil
}

func (p *parser) primary() ([]item, error) {
	switch c := p.peek(); {
	case c == '"':
		p.pos++
		var b strings.Builder
		for {
			if p.eof() {
				return nil, p.errorf("unclosed string")
			}
			if p.peek() == '"' {
				p.pos++
				break
			}
			r, err := p.char()
			if err != nil {
				return nil, err
			}
			b.WriteRune(r)
		}
		return literal(b.String()), nil
	case c == '[':
		p.pos++
		neg := p.peek() == '^'
		if neg {
			p.pos++
		}
		var rs []runeRange
		for {
			if p.eof() {
				return nil, p.errorf("unclosed [")
			}
			if p.peek() == ']' {
				p.pos++
				break
			}
			lo, err := p.char()
			if err != nil {
				return nil, err
			}
			hi := lo
			if p.peek() == '-' && p.pos+1 < len(p.src) && p.src[p.pos+1] != ']' {
				p.pos++
				if hi, err = p.char(); err != nil {
					return nil, err
				}
				if hi < lo {
					return nil, p.errorf("range %q-%q is backwards", lo, hi)
				}
			}
			rs = append(rs, runeRange{lo, hi})
		}
		if neg {
			rs = complement(rs)
		}
		if len(normalize(rs)) == 0 {
			return nil, p.errorf("an empty character class")
		}
		return []item{p.b.class(rs)}, nil
	case c == '.':
		p.pos++
		return []item{p.b.class([]runeRange{{0, utf8.MaxRune}})}, nil
	case c == '(':
		p.pos++
		if p.depth++; p.depth > maxDepth {
			return nil, p.errorf("groups nested deeper than %d", maxDepth)
		}
		alts, err := p.alternatives()
		p.depth--
		if err != nil {
			return nil, err
		}
		p.space()
		if p.peek() != ')' {
			return nil, p.errorf(") is expected")
		}
		p.pos++
		if len(alts) == 1 {
			return alts[0], nil
		}
		return []item{refItem(p.b.fresh("group", alts))}, nil
	case isNameByte(c):
		return []item{refItem(p.b.rule(p.name()))}, nil
	}
	return nil, p.errorf("unexpected %q", p.peek())
}

// char reads one character of a string or class, escapes included.
func (p *parser) char() (rune, error) {
	c := p.src[p.pos]
	if c != '\\' {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		if r == utf8.RuneError && n <= 1 {
			return 0, p.errorf("invalid UTF-8")
		}
		p.pos += n
		return r, nil
	}
	if p.pos+1 >= len(p.src) {
		return 0, p.errorf("a lone \\ at the end")
	}
	e := p.src[p.pos+1]
	p.pos += 2
	hex := 0
	switch e {
	case 'n':
		return '\n', nil
	case 't':
		return '\t', nil
	case 'r':
		return '\r', nil
	case 'x':
		hex = 2
	case 'u':
		hex = 4
	case 'U':
		hex = 8
	default:
		return rune(e), nil // \\ \" \] \[ \- \^ and anything else as itself
	}
	if p.pos+hex > len(p.src) {
		return 0, p.errorf("a short \\%c escape", e)
	}
	v, err := strconv.ParseUint(p.src[p.pos:p.pos+hex], 16, 32)
	if err != nil || v > utf8.MaxRune {
		return 0, p.errorf("bad escape \\%c%s", e, p.src[p.pos:p.pos+hex])
	}
	p.pos += hex
	return rune(v), nil
}
