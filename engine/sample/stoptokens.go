package sample

import "slices"

// StopTokens is a set of token ids that end generation (EOS, EOT, and any
// end-of-turn markers a chat template adds). The zero value is an empty set.
type StopTokens struct {
	ids []int32 // sorted, distinct; a handful at most, so a slice beats a map
}

// NewStopTokens returns the set of the given ids; negative ids (a GGUF's way
// of saying "no such token") are dropped.
func NewStopTokens(ids ...int32) *StopTokens {
	s := &StopTokens{}
	s.Add(ids...)
	return s
}

// Add puts ids in the set, ignoring negative ones and duplicates.
func (s *StopTokens) Add(ids ...int32) {
	for _, id := range ids {
		if id < 0 {
			continue
		}
		if i, found := slices.BinarySearch(s.ids, id); !found {
			s.ids = slices.Insert(s.ids, i, id)
		}
	}
}

// Contains reports whether id ends generation. A nil set contains nothing.
func (s *StopTokens) Contains(id int32) bool {
	if s == nil {
		return false
	}
	_, found := slices.BinarySearch(s.ids, id)
	return found
}

// IDs returns the ids in increasing order (a copy).
func (s *StopTokens) IDs() []int32 {
	if s == nil {
		return nil
	}
	return slices.Clone(s.ids)
}
