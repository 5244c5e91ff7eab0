package grammar

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
)

// Vocab is a vocabulary as the grammar sees it: each token's piece, the
// bytes it adds to the output text, and the tokens that end generation.
// Build one per tokenizer and share it.
type Vocab struct {
	n      int
	text   []byte  // every piece, one after another
	offs   []int32 // piece i is text[offs[i]:offs[i+1]]
	order  []int32 // the tokens with a piece, sorted by it
	lcp    []int32 // lcp[i]: bytes order[i]'s piece shares with order[i-1]'s
	maxLen int
	eog    []int32
	isEOG  map[int32]bool

	mu       sync.Mutex
	machines map[*Grammar]*machine
}

// NewVocab describes n tokens: piece gives the bytes token id writes
// ("" for a token that writes nothing, such as a control token: never
// allowed), eog the end-of-generation tokens, allowed where the grammar
// may end.
func NewVocab(n int, piece func(id int32) string, eog []int32) *Vocab {
	v := &Vocab{n: n, offs: make([]int32, n+1), isEOG: map[int32]bool{}}
	for id := range int32(n) {
		p := piece(id)
		v.text = append(v.text, p...)
		v.offs[id+1] = int32(len(v.text))
		if p != "" {
			v.order = append(v.order, id)
			v.maxLen = max(v.maxLen, len(p))
		}
	}
	for _, id := range eog {
		if id >= 0 && int(id) < n && !v.isEOG[id] {
			v.eog = append(v.eog, id)
			v.isEOG[id] = true
		}
	}
	slices.SortFunc(v.order, func(a, b int32) int { return bytes.Compare(v.piece(a), v.piece(b)) })
	v.lcp = make([]int32, len(v.order))
	for i := 1; i < len(v.order); i++ {
		a, b := v.piece(v.order[i-1]), v.piece(v.order[i])
		k := 0
		for k < len(a) && k < len(b) && a[k] == b[k] {
			k++
		}
		v.lcp[i] = int32(k)
	}
	return v
}

func (v *Vocab) piece(id int32) []byte { return v.text[v.offs[id]:v.offs[id+1]] }

// Size is the number of tokens.
func (v *Vocab) Size() int { return v.n }

// machine is the shared machine of g over v: the DFA it builds serves
// every request with the same grammar.
func (v *Vocab) machine(g *Grammar) *machine {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.machines == nil {
		v.machines = map[*Grammar]*machine{}
	}
	m, ok := v.machines[g]
	if !ok {
		if len(v.machines) >= 16 {
			clear(v.machines)
		}
		m = newMachine(g, v)
		v.machines[g] = m
	}
	return m
}

// Matcher follows one generation through a grammar: Allowed gives the
// tokens that may come next, Accept takes the one chosen. It is not safe
// for concurrent use (matchers of the same grammar may run concurrently).
type Matcher struct {
	m     *machine
	state int32
	ended bool
}

// NewMatcher starts a generation constrained by g.
func NewMatcher(g *Grammar, v *Vocab) (*Matcher, error) {
	m := v.machine(g)
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.start()
	if err != nil {
		return nil, err
	}
	if s == dead {
		return nil, fmt.Errorf("grammar: the root rule matches nothing")
	}
	return &Matcher{m: m, state: s}, nil
}

// Allowed is the set of tokens that may come next, as a bitset over the
// vocabulary (bit id%64 of word id/64). The caller must not modify it.
func (mt *Matcher) Allowed() ([]uint64, error) {
	if mt.ended {
		return make([]uint64, (mt.m.v.n+63)/64), nil
	}
	mt.m.mu.Lock()
	defer mt.m.mu.Unlock()
	return mt.m.mask(mt.state)
}

// Accept advances past token id, which must be allowed.
func (mt *Matcher) Accept(id int32) error {
	m := mt.m
	if mt.ended {
		return fmt.Errorf("grammar: token %d after the end", id)
	}
	if id < 0 || int(id) >= m.v.n {
		return fmt.Errorf("grammar: token %d is outside the vocabulary", id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.v.isEOG[id] {
		if !m.states[mt.state].accept {
			return fmt.Errorf("grammar: the text may not end here")
		}
		mt.ended = true
		return nil
	}
	p := m.v.piece(id)
	if len(p) == 0 {
		return fmt.Errorf("grammar: token %d writes nothing", id)
	}
	s, err := m.feed(mt.state, p)
	if err != nil {
		return err
	}
	if s == dead {
		return fmt.Errorf("grammar: token %d (%q) does not fit here", id, p)
	}
	mt.state = s
	return nil
}

// AcceptText advances past text written without tokens (a prefix the
// caller forces); it fails when the grammar does not take it.
func (mt *Matcher) AcceptText(text string) error {
	m := mt.m
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.feed(mt.state, []byte(text))
	if err != nil {
		return err
	}
	if s == dead {
		return fmt.Errorf("grammar: %q does not fit here", text)
	}
	mt.state = s
	return nil
}

// CanEnd reports whether the text so far is a whole sentence of the
// grammar.
func (mt *Matcher) CanEnd() bool {
	mt.m.mu.Lock()
	defer mt.m.mu.Unlock()
	return mt.ended || mt.m.states[mt.state].accept
}

// MustEnd reports whether nothing but the end may follow.
func (mt *Matcher) MustEnd() bool {
	mt.m.mu.Lock()
	defer mt.m.mu.Unlock()
	return mt.ended || mt.m.only(mt.state)
}

// Match reports whether text is a whole sentence of g (a test helper,
// and a check on what a constrained generation wrote).
func Match(g *Grammar, text string) (bool, error) {
	m := newMachine(g, NewVocab(0, nil, nil))
	s, err := m.start()
	if err != nil || s == dead {
		return false, err
	}
	s, err = m.feed(s, []byte(text))
	if err != nil || s == dead {
		return false, err
	}
	return m.states[s].accept, nil
}
