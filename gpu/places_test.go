package gpu

import (
	"strings"
	"testing"
)

// TestCheckRunSpan: a step whose sequences hold at most span positions
// (Graph.Span, a decode batch's slot) refuses a token placed at span or
// past even where the cache has that row (another slot's), and a step
// run at a position whose tokens end past span; the last position inside
// passes.
func TestCheckRunSpan(t *testing.T) {
	const tokens, rows, span = 2, 40, 10
	maxPos := rows - tokens
	ok := []Params{
		{Places: []Place{{Pos: span - 1, Base: 0}, {Pos: 3, Base: 30}}},
		{Pos: span - tokens},
	}
	for _, p := range ok {
		if err := CheckRun(p, tokens, maxPos, span); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
	bad := []struct {
		p    Params
		want string
	}{
		{Params{Places: []Place{{Pos: 1, Base: 0}, {Pos: span, Base: 10}}}, "past its sequence's 10 positions"},
		{Params{Places: []Place{{Pos: 1, Base: 0}, {Pos: 5, Base: rows - 3}}}, "does not fit the KV cache"},
		{Params{Pos: span - tokens + 1}, "does not fit the KV cache (positions 0..9)"},
	}
	for _, b := range bad {
		err := CheckRun(b.p, tokens, maxPos, span)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%+v: got %v, want an error saying %q", b.p, err, b.want)
		}
	}
	// Without a span the cache's rows are the limit.
	if err := CheckRun(Params{Places: []Place{{Pos: span, Base: 0}, {Pos: 0, Base: 1}}}, tokens, maxPos, 0); err != nil {
		t.Errorf("no span: %v", err)
	}
}
