package grammar

import (
	"fmt"
	"strings"
)

// Grammar is a compiled grammar: rules made of alternatives, each a
// sequence of elements that take one byte from a set or stand for another
// rule. It is immutable and safe to share.
type Grammar struct {
	elems []elem    // every alternative of every rule, each ended by an end element
	alts  [][]int32 // the positions in elems where each rule's alternatives start
	names []string
	root  int32
	src   string // the GBNF text, when there is one (String)
}

type elemKind uint8

const (
	endElem  elemKind = iota // the end of an alternative
	byteElem                 // one byte from set
	refElem                  // the rule ref
)

type elem struct {
	kind elemKind
	ref  int32
	set  byteSet
}

// String is the grammar's GBNF source.
func (g *Grammar) String() string { return g.src }

// Rules is the number of rules, generated ones included.
func (g *Grammar) Rules() int { return len(g.alts) }

// item is one element of an alternative while a grammar is built.
type item struct {
	ref   int // rule index when isRef
	isRef bool
	set   byteSet
}

type bRule struct {
	name    string
	alts    [][]item
	defined bool
}

// builder collects rules by name, with generated helper rules for groups,
// character classes and repetitions.
type builder struct {
	rules  []bRule
	byName map[string]int
}

func newBuilder() *builder { return &builder{byName: map[string]int{}} }

// rule returns the index of the named rule, declaring it if new.
func (b *builder) rule(name string) int {
	if i, ok := b.byName[name]; ok {
		return i
	}
	b.rules = append(b.rules, bRule{name: name})
	b.byName[name] = len(b.rules) - 1
	return len(b.rules) - 1
}

// define gives a rule its alternatives.
func (b *builder) define(i int, alts [][]item) {
	b.rules[i].alts = alts
	b.rules[i].defined = true
}

// fresh is a new generated rule named after base.
func (b *builder) fresh(base string, alts [][]item) int {
	name := fmt.Sprintf("%s-%d", base, len(b.rules))
	i := b.rule(name)
	b.define(i, alts)
	return i
}

func refItem(i int) item { return item{ref: i, isRef: true} }

func byteItem(lo, hi byte) item {
	var it item
	it.set.add(lo, hi)
	return it
}

// literal is the bytes of s, one element each.
func literal(s string) []item {
	out := make([]item, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = byteItem(s[i], s[i])
	}
	return out
}

// class is one character from the ranges: a single element when they are
// all ASCII, else a rule whose alternatives are their UTF-8 sequences
// (one alternative for the ASCII part).
func (b *builder) class(rs []runeRange) item {
	seqs := utf8Sequences(rs)
	var ascii item
	var alts [][]item
	for _, s := range seqs {
		if len(s) == 1 && s[0].hi < 0x80 {
			ascii.set.add(s[0].lo, s[0].hi)
			continue
		}
		alt := make([]item, len(s))
		for i, r := range s {
			alt[i] = byteItem(r.lo, r.hi)
		}
		alts = append(alts, alt)
	}
	if len(alts) == 0 {
		return ascii
	}
	if !ascii.set.empty() {
		alts = append([][]item{{ascii}}, alts...)
	}
	return refItem(b.fresh("char", alts))
}

// single makes a sequence one item: itself when it is one element, else
// a rule of it.
func (b *builder) single(seq []item) item {
	if len(seq) == 1 {
		return seq[0]
	}
	return refItem(b.fresh("group", [][]item{seq}))
}

// repeat is seq repeated from lo to hi times (hi < 0: no upper bound),
// as right recursion: x* is R ::= x R | (empty); x{0,k} nests k optional
// copies, R_k ::= x R_(k-1) | (empty).
func (b *builder) repeat(seq []item, lo, hi int) []item {
	x := b.single(seq)
	var out []item
	for range lo {
		out = append(out, x)
	}
	switch {
	case hi < 0:
		r := b.rule(fmt.Sprintf("star-%d", len(b.rules)))
		b.define(r, [][]item{{x, refItem(r)}, {}})
		out = append(out, refItem(r))
	case hi > lo:
		prev := -1
		for range hi - lo {
			alt := []item{x}
			if prev >= 0 {
				alt = append(alt, refItem(prev))
			}
			prev = b.fresh("opt", [][]item{alt, {}})
		}
		out = append(out, refItem(prev))
	}
	return out
}

// build checks the rules and flattens them into a Grammar whose root is
// the named rule.
func (b *builder) build(root string, src string) (*Grammar, error) {
	ri, ok := b.byName[root]
	if !ok {
		return nil, fmt.Errorf("grammar: no rule %q", root)
	}
	var undefined []string
	for _, r := range b.rules {
		if !r.defined {
			undefined = append(undefined, r.name)
		}
	}
	if len(undefined) > 0 {
		return nil, fmt.Errorf("grammar: undefined rule(s) %s", strings.Join(undefined, ", "))
	}
	if err := b.checkLeftRecursion(); err != nil {
		return nil, err
	}
	g := &Grammar{alts: make([][]int32, len(b.rules)), names: make([]string, len(b.rules)), root: int32(ri), src: src}
	for i, r := range b.rules {
		g.names[i] = r.name
		for _, alt := range r.alts {
			g.alts[i] = append(g.alts[i], int32(len(g.elems)))
			for _, it := range alt {
				if it.isRef {
					g.elems = append(g.elems, elem{kind: refElem, ref: int32(it.ref)})
				} else {
					g.elems = append(g.elems, elem{kind: byteElem, set: it.set})
				}
			}
			g.elems = append(g.elems, elem{kind: endElem})
		}
	}
	return g, nil
}

// checkLeftRecursion refuses a rule that can reach itself before taking a
// byte: its stacks would grow without end.
func (b *builder) checkLeftRecursion() error {
	n := len(b.rules)
	nullable := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for i, r := range b.rules {
			if nullable[i] {
				continue
			}
			for _, alt := range r.alts {
				all := true
				for _, it := range alt {
					if !it.isRef || !nullable[it.ref] {
						all = false
						break
					}
				}
				if all {
					nullable[i], changed = true, true
					break
				}
			}
		}
	}
	// left[i]: the rules i can start with.
	left := make([][]int, n)
	for i, r := range b.rules {
		for _, alt := range r.alts {
			for _, it := range alt {
				if !it.isRef {
					break
				}
				left[i] = append(left[i], it.ref)
				if !nullable[it.ref] {
					break
				}
			}
		}
	}
	state := make([]uint8, n) // 0 new, 1 on the path, 2 done
	var visit func(i int, path []string) error
	visit = func(i int, path []string) error {
		switch state[i] {
		case 1:
			return fmt.Errorf("grammar: rule %s is left-recursive (%s)", b.rules[i].name, strings.Join(append(path, b.rules[i].name), " -> "))
		case 2:
			return nil
		}
		state[i] = 1
		for _, j := range left[i] {
			if err := visit(j, append(path, b.rules[i].name)); err != nil {
				return err
			}
		}
		state[i] = 2
		return nil
	}
	for i := range b.rules {
		if err := visit(i, nil); err != nil {
			return err
		}
	}
	return nil
}
