package gpu

import (
	"encoding/binary"
	"fmt"
)

// Placing tokens one by one. A step normally holds consecutive tokens of
// one sequence whose cache starts at row 0: Params.Pos says where the
// first one sits. Serving many sequences at once needs more: a decode
// batch holds one token of each of several sequences, each at its own
// position, and the sequences share one KV cache of several slots (rows
// Base..Base+ctx-1 are one sequence's). Params.Places gives every token of
// a step its Place; the ops that read positions (Rope, KVStore,
// Attention) take them from there. A prefill chunk of a sequence in a
// slot is placed the same way, its tokens at consecutive positions of one
// Base.

// Place is where one token of a step sits: at position Pos of its
// sequence, whose cache rows start at row Base. Rope rotates it by Pos,
// KVStore writes it at cache row Base+Pos, and Attention has it attend to
// rows Base..Base+Pos: its own sequence's, its own included.
type Place struct{ Pos, Base int }

// MaxPlaces is the most tokens a step run with Places may hold: a GPU
// backend keeps the places in the small uniform block it writes before
// each run (16 bytes for two tokens).
const MaxPlaces = 256

// CheckPlaces checks the places of a run of a step of tokens tokens whose
// caches hold rows rows (the shortest of them), of sequences of at most
// span positions (Graph.Span; 0: rows): one place a token, every token
// stored inside the caches at a position below span.
func CheckPlaces(places []Place, tokens, rows, span int) error {
	if len(places) != tokens {
		return fmt.Errorf("%d places for a step of %d tokens", len(places), tokens)
	}
	if tokens > MaxPlaces {
		return fmt.Errorf("a step of %d tokens cannot be placed token by token (at most %d)", tokens, MaxPlaces)
	}
	for t, p := range places {
		if p.Pos < 0 || p.Base < 0 || p.Base+p.Pos >= rows {
			return fmt.Errorf("token %d at position %d of the sequence at cache row %d does not fit the KV cache (rows 0..%d)", t, p.Pos, p.Base, rows-1)
		}
		if span > 0 && p.Pos >= span {
			return fmt.Errorf("token %d at position %d is past its sequence's %d positions", t, p.Pos, span)
		}
	}
	return nil
}

// StepBytes is the step a GPU backend's kernels read (WebGPU's
// parts/step.wgsl, Metal's prelude): the position, a word saying whether
// the tokens are placed one by one, two words of padding, then for placed
// tokens each token's position and the cache row where its sequence
// starts, two words each (at most MaxPlaces tokens).
func StepBytes(p Params) []byte {
	if p.Places == nil {
		st := make([]byte, 16)
		binary.LittleEndian.PutUint32(st, uint32(p.Pos))
		return st
	}
	st := make([]byte, 16+8*len(p.Places))
	binary.LittleEndian.PutUint32(st[4:], 1)
	for t, pl := range p.Places {
		binary.LittleEndian.PutUint32(st[16+8*t:], uint32(pl.Pos))
		binary.LittleEndian.PutUint32(st[20+8*t:], uint32(pl.Base))
	}
	return st
}
