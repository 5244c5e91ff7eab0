package grammar

import (
	"encoding/binary"
	"errors"
	"slices"
	"sync"
)

// machine runs a grammar: interned stacks, the sets of them met so far as
// DFA states, their byte transitions and token masks. It grows as it is
// used and is shared by the matchers of one grammar and vocabulary, under
// its mutex.
type machine struct {
	mu sync.Mutex
	g  *Grammar
	v  *Vocab

	nodes   []node // interned stack frames; a stack is the id of its top frame, -1 when empty
	nodeIDs map[node]int32

	states   []*state
	stateIDs map[string]int32

	scratch  []int32
	visiting map[int32]bool
	keybuf   []byte
	masks    int // states holding a mask
}

// node is one frame of a stack: the grammar position it waits at and the
// frame below it.
type node struct{ pos, next int32 }

// state is a set of stacks, each waiting at a byte element, or empty
// (the grammar may end here).
type state struct {
	stacks []int32
	accept bool
	trans  *[256]int32 // lazily: transUnknown, dead, or the next state
	mask   []uint64    // lazily: the tokens allowed here
}

const (
	dead         = -1
	transUnknown = -2
	// maxStates bounds a machine's memory (a state's transitions take
	// 1 KiB): a grammar that makes more distinct parser states than this
	// is refused mid-way.
	maxStates = 1 << 15
	// maxMasks bounds the token masks kept (each is vocabulary/8 bytes,
	// 19 KiB for 152k tokens).
	maxMasks = 512
)

// ErrTooComplex is returned when a grammar's parser states exceed the
// machine's bound.
var ErrTooComplex = errors.New("grammar: too many parser states (the grammar is too complex or too deeply nested)")

func newMachine(g *Grammar, v *Vocab) *machine {
	return &machine{g: g, v: v, nodeIDs: map[node]int32{}, stateIDs: map[string]int32{}, visiting: map[int32]bool{}}
}

func (m *machine) push(pos, next int32) int32 {
	n := node{pos, next}
	if id, ok := m.nodeIDs[n]; ok {
		return id
	}
	m.nodes = append(m.nodes, n)
	id := int32(len(m.nodes) - 1)
	m.nodeIDs[n] = id
	return id
}

// after is the stack once its top element is done: the top frame moves to
// the next element, or goes when that ends its alternative (so a
// reference at the end of an alternative costs no frame: right recursion
// runs in constant depth).
func (m *machine) after(st int32) int32 {
	n := m.nodes[st]
	if m.g.elems[n.pos+1].kind == endElem {
		return n.next
	}
	return m.push(n.pos+1, n.next)
}

// expand adds to out the stacks st stands for once every reference on top
// is replaced by its rule's alternatives and finished alternatives are
// popped: stacks whose top takes a byte, and -1 for an empty stack.
func (m *machine) expand(st int32, out *[]int32) {
	if m.visiting[st] {
		return
	}
	m.visiting[st] = true
	if st < 0 {
		*out = append(*out, st)
		return
	}
	n := m.nodes[st]
	switch e := m.g.elems[n.pos]; e.kind {
	case endElem:
		m.expand(n.next, out)
	case byteElem:
		*out = append(*out, st)
	case refElem:
		rest := m.after(st)
		for _, a := range m.g.alts[e.ref] {
			if m.g.elems[a].kind == endElem {
				m.expand(rest, out)
			} else {
				m.expand(m.push(a, rest), out)
			}
		}
	}
}

// intern returns the state of a set of stacks (sorted and deduplicated
// here), dead for the empty set.
func (m *machine) intern(stacks []int32) (int32, error) {
	if len(stacks) == 0 {
		return dead, nil
	}
	slices.Sort(stacks)
	stacks = slices.Compact(stacks)
	m.keybuf = m.keybuf[:0]
	for _, s := range stacks {
		m.keybuf = binary.LittleEndian.AppendUint32(m.keybuf, uint32(s))
	}
	if id, ok := m.stateIDs[string(m.keybuf)]; ok {
		return id, nil
	}
	if len(m.states) >= maxStates {
		return dead, ErrTooComplex
	}
	s := &state{stacks: slices.Clone(stacks)}
	s.accept = s.stacks[0] == -1
	m.states = append(m.states, s)
	id := int32(len(m.states) - 1)
	m.stateIDs[string(m.keybuf)] = id
	return id, nil
}

// start is the state before any byte: the root rule expanded.
func (m *machine) start() (int32, error) {
	clear(m.visiting)
	out := m.scratch[:0]
	for _, a := range m.g.alts[m.g.root] {
		if m.g.elems[a].kind == endElem {
			m.expand(-1, &out)
		} else {
			m.expand(m.push(a, -1), &out)
		}
	}
	m.scratch = out
	return m.intern(out)
}

// step is the state after byte b from state s (dead when s does not take b).
func (m *machine) step(s int32, b byte) (int32, error) {
	st := m.states[s]
	if st.trans == nil {
		st.trans = new([256]int32)
		for i := range st.trans {
			st.trans[i] = transUnknown
		}
	}
	if t := st.trans[b]; t != transUnknown {
		return t, nil
	}
	clear(m.visiting)
	out := m.scratch[:0]
	for _, stack := range st.stacks {
		if stack < 0 {
			continue
		}
		if e := &m.g.elems[m.nodes[stack].pos]; e.set.has(b) {
			m.expand(m.after(stack), &out)
		}
	}
	m.scratch = out
	t, err := m.intern(out)
	if err != nil {
		return dead, err
	}
	// intern may have grown m.states; st is still this state's pointer.
	st.trans[b] = t
	return t, nil
}

// feed runs bytes from state s, stopping at the first one refused.
func (m *machine) feed(s int32, text []byte) (int32, error) {
	for _, b := range text {
		var err error
		if s, err = m.step(s, b); err != nil || s == dead {
			return dead, err
		}
	}
	return s, nil
}

// mask is the set of tokens allowed in state s (see Vocab): those whose
// piece the grammar takes whole from s, and the end-of-generation tokens
// when the grammar may end in s.
func (m *machine) mask(s int32) ([]uint64, error) {
	st := m.states[s]
	if st.mask != nil {
		return st.mask, nil
	}
	v := m.v
	mask := make([]uint64, (v.n+63)/64)
	if st.accept {
		for _, id := range v.eog {
			mask[id>>6] |= 1 << (id & 63)
		}
	}
	// Walk the pieces in sorted order: path[d] is the state after the
	// first d bytes of the current piece, valid for d <= reached.
	path := make([]int32, v.maxLen+1)
	path[0] = s
	reached := 0
	for i, id := range v.order {
		p := v.piece(id)
		d := int(v.lcp[i])
		if d > reached {
			// The piece shares the prefix the one before died on.
			continue
		}
		j := d
		for ; j < len(p); j++ {
			next, err := m.step(path[j], p[j])
			if err != nil {
				return nil, err
			}
			if next == dead {
				break
			}
			path[j+1] = next
		}
		reached = j
		if j == len(p) {
			mask[id>>6] |= 1 << (id & 63)
		}
	}
	if m.masks >= maxMasks {
		for _, o := range m.states {
			o.mask = nil
		}
		m.masks = 0
	}
	st.mask = mask
	m.masks++
	return mask, nil
}

// only reports whether nothing but ending is possible in s.
func (m *machine) only(s int32) bool {
	st := m.states[s]
	return st.accept && len(st.stacks) == 1
}
