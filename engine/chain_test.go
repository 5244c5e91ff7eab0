//go:build cgo && !js

package engine

import (
	"cmp"
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// copyCounter is the WebGPU backend, counting the device-side copies the
// engine asks for (so a test can tell the chained path ran).
type copyCounter struct {
	gpu.Backend
	copies int
}

func (c *copyCounter) CopyBuffer(dst gpu.Buffer, dstOff int, src gpu.Buffer, srcOff, n int) error {
	c.copies++
	return c.Backend.(gpu.Copier).CopyBuffer(dst, dstOff, src, srcOff, n)
}

// Chained greedy decoding on a device backend (each step's token fed to the
// next on the device, read back once per chain) must give exactly the
// tokens of one step at a time: to the length limit, at a stop string in
// the middle of a chain, and in the next turn, which reuses the cache
// although the chain computed positions past the stop.
func TestChainedDecodeMatchesSteps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(path, "tiny", synth.Llama, "Q8_0", 7); err != nil {
		t.Fatal(err)
	}
	be, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cc := &copyCounter{Backend: be}
	e, err := Load(path, Options{Backend: cc, Context: 128})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	session := func(chainLen int) *Session {
		s, err := e.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		s.chainLen = chainLen
		return s
	}
	gen := func(s *Session, ids []int32, req Request) *Result {
		t.Helper()
		res, err := s.GenerateTokens(ctx, ids, req, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	prompt := []int32{1, 72, 101, 108, 108, 111, 32}
	// 0: to the end of the context (128 - 7 prompt tokens, 122 tokens)
	for _, n := range []int{37, 13, 2, 0} {
		req := Request{Sample: greedy(), MaxTokens: n, IgnoreEOS: true}
		want := gen(session(1), prompt, req)
		// Chains of two steps (many chains, each read while the next runs)
		// and of chainSteps.
		for _, longest := range []int{2, chainSteps} {
			before := cc.copies
			got := gen(session(longest), prompt, req)
			if !slices.Equal(got.Tokens, want.Tokens) {
				t.Fatalf("%d tokens, chains up to %d: chained %v, one step at a time %v", n, longest, got.Tokens, want.Tokens)
			}
			if n > 2 && cc.copies == before {
				t.Fatalf("%d tokens: the chained session made no device copies", n)
			}
			if want := cmp.Or(n, 128-len(prompt)+1); len(got.Tokens) != want {
				t.Fatalf("asked for %d tokens, got %d, want %d", n, len(got.Tokens), want)
			}
		}
	}

	// A stop string that ends inside a chain: the text of tokens 10..11.
	full := gen(session(1), prompt, Request{Sample: greedy(), MaxTokens: 30, IgnoreEOS: true})
	dec := e.Tokenizer.NewDecoder()
	var text string
	for i, id := range full.Tokens {
		s := dec.Add(id)
		if i >= 10 && i <= 11 {
			text += s
		}
	}
	if text == "" {
		t.Fatalf("tokens 10..11 of %v decode to no text", full.Tokens)
	}
	stopReq := Request{Sample: greedy(), MaxTokens: 30, IgnoreEOS: true, Stop: []string{text}}
	want := gen(session(1), prompt, stopReq)
	chained := session(chainSteps)
	got := gen(chained, prompt, stopReq)
	if !slices.Equal(got.Tokens, want.Tokens) || got.Text != want.Text || got.Stats.StopReason != "stop" {
		t.Fatalf("stop %q: chained %v %q (%s), one step at a time %v %q", text, got.Tokens, got.Text, got.Stats.StopReason, want.Tokens, want.Text)
	}

	// The next turn continues from what the chained session kept.
	next := append(append(slices.Clone(prompt), got.Tokens...), 44, 32)
	turn := Request{Sample: greedy(), MaxTokens: 20, IgnoreEOS: true}
	a := gen(chained, next, turn)
	b := gen(session(1), next, turn)
	if a.Stats.ReusedTokens == 0 {
		t.Fatalf("the second turn reused no cached tokens")
	}
	if !slices.Equal(a.Tokens, b.Tokens) {
		t.Fatalf("second turn: chained session %v, fresh session %v", a.Tokens, b.Tokens)
	}
}
