package main

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/gpu/cpu"
)

// TestBenchRunsAtDepth: a repetition's prefill test follows the depth's
// cached tokens (it times only the prompt's), and its decode test follows
// the depth and one token, not the prompt, as llama-bench's tg at -d does.
func TestBenchRunsAtDepth(t *testing.T) {
	inspectNeedStories(t)
	e, err := engine.Load(inspectStories, engine.Options{Backend: cpu.New(2), Threads: 2, Context: 40})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	draw := func(n int) []int32 {
		ids := make([]int32, n)
		for i := range ids {
			ids[i] = benchToken(e, rng)
		}
		return ids
	}
	const depth, nPrompt, nGen = 8, 16, 8
	ctxTokens, prompt, first := draw(depth), draw(nPrompt), draw(1)[0]
	s, err := e.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	greedy := sample.DefaultOptions()
	greedy.Temperature = 0
	pp, tg, err := benchRuns(s, ctxTokens, prompt, first, nGen, greedy)
	if err != nil {
		t.Fatal(err)
	}
	if pp.PromptTokens != depth+nPrompt || pp.ReusedTokens != depth || pp.PrefillRate() <= 0 {
		t.Errorf("prefill test: %d prompt tokens, %d reused, %.1f tok/s; want %d, %d and a rate", pp.PromptTokens, pp.ReusedTokens, pp.PrefillRate(), depth+nPrompt, depth)
	}
	if tg.PromptTokens != depth+1 || tg.ReusedTokens != 0 || tg.GeneratedTokens != nGen+1 || tg.DecodeRate() <= 0 {
		t.Errorf("decode test: %d prompt tokens (%d reused), %d generated, %.1f tok/s; want %d, 0, %d and a rate", tg.PromptTokens, tg.ReusedTokens, tg.GeneratedTokens, tg.DecodeRate(), depth+1, nGen+1)
	}
	h := s.History()
	if len(h) < depth+nGen || !slices.Equal(h[:depth], ctxTokens) || h[depth] != first {
		t.Errorf("the decode test's sequence starts %v (%d tokens); want the depth's %v, then %d", h[:min(len(h), depth+1)], len(h), ctxTokens, first)
	}
}

// TestBenchDepthFlag: -d reaches the JSON, and a depth the context cannot
// hold is refused with the context it needs.
func TestBenchDepthFlag(t *testing.T) {
	inspectNeedStories(t)
	out, errs, err := ember(t, "", "bench", "--model", inspectStories, "-d", "8", "-p", "16", "-n", "8", "-r", "1", "--threads", "2", "--json")
	if err != nil {
		t.Fatalf("ember bench -d 8: %v\n%s", err, errs)
	}
	var r struct {
		Depth      int     `json:"depth"`
		DecodeMean float64 `json:"decode_mean"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Depth != 8 || r.DecodeMean <= 0 {
		t.Fatalf("bench -d 8 --json printed %q (%v): want depth 8 and a decode rate", out, err)
	}
	_, errs, err = ember(t, "", "bench", "--model", inspectStories, "--ctx", "20", "-d", "8", "-p", "16", "-n", "4", "-r", "1", "--threads", "2")
	if err == nil || !strings.Contains(errs, "needs a context of 24 tokens") {
		t.Fatalf("bench -d 8 -p 16 in a context of 20: err %v, stderr %q; want it refused for needing 24", err, errs)
	}
}
