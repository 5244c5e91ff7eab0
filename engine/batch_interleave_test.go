package engine

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/emberllm/ember/engine/synth"
)

// TestBatchLongPromptDoesNotStall: a long prompt arriving while another
// stream decodes is prefilled a chunk at a time between the decode steps,
// so the decoding stream keeps getting tokens while it runs: that stream
// sees the batch's prefilled-token count at several values strictly
// between before and after the prompt (a prompt run whole would show it
// none). Both streams still give what they give alone.
func TestBatchLongPromptDoesNotStall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(path, "tiny", synth.Qwen3, "Q8_0", 3); err != nil {
		t.Fatal(err)
	}
	// 437 prompt tokens: a chunk of 256, five of 32 and five of 4
	// (prefillChunks), then the last token with a decode step.
	e, err := Load(path, Options{Threads: 2, Context: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rng := rand.New(rand.NewPCG(7, 26))
	long := []int32{1}
	for len(long) < 437 {
		long = append(long, int32(3+rng.IntN(120)))
	}
	short := batchPrompts[0]
	reqA := Request{Sample: greedy(), MaxTokens: 48, IgnoreEOS: true}
	reqB := Request{Sample: greedy(), MaxTokens: 4, IgnoreEOS: true}
	alone := func(p []int32, req Request) *Result {
		s, err := e.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.GenerateTokens(context.Background(), p, req, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	wantA, wantB := alone(short, reqA), alone(long, reqB)

	b, err := e.NewBatch(2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var (
		wg      sync.WaitGroup
		resB    *Result
		errB    error
		before  int64
		seen    []int64 // PrefillTokens at each of A's tokens after B started
		started bool
	)
	n := 0
	resA, err := b.Sessions()[0].GenerateTokens(context.Background(), short, reqA, false, func(Event) error {
		n++
		switch {
		case n == 3:
			// B starts, and A waits for its first chunk (at most 10 s): a
			// tiny model's stream could otherwise end before B's
			// goroutine has asked for anything.
			before, started = b.Stats().PrefillTokens, true
			wg.Add(1)
			go func() {
				defer wg.Done()
				resB, errB = b.Sessions()[1].GenerateTokens(context.Background(), long, reqB, false, nil)
			}()
			for end := time.Now().Add(10 * time.Second); b.Stats().PrefillTokens == before && time.Now().Before(end); {
				time.Sleep(100 * time.Microsecond)
			}
		case started:
			seen = append(seen, b.Stats().PrefillTokens)
			// A client reading its stream: a tiny model's steps take
			// microseconds, and without a pause A's goroutine and the
			// scheduler's could pass the processor between them for the
			// Go scheduler's whole time slice while B's waits to ask
			// for its next chunk.
			time.Sleep(200 * time.Microsecond)
		}
		return nil
	})
	wg.Wait()
	if err != nil || errB != nil {
		t.Fatal(err, errB)
	}
	if !slices.Equal(resA.Tokens, wantA.Tokens) || !slices.Equal(resB.Tokens, wantB.Tokens) {
		t.Fatalf("together A %v B %v, alone A %v B %v", resA.Tokens, resB.Tokens, wantA.Tokens, wantB.Tokens)
	}
	// The prompt's last token runs with a decode step, the rest in chunks.
	after := before + int64(len(long)-1)
	if got := b.Stats().PrefillTokens; got != after {
		t.Fatalf("prefilled %d tokens in chunks, want %d", got-before, after-before)
	}
	between := map[int64]bool{}
	for _, p := range seen {
		if p > before && p < after {
			between[p] = true
		}
	}
	// The prompt takes eleven chunks: A must see
	// it part done at least a few times.
	if len(between) < 3 {
		t.Fatalf("the decoding stream saw the prompt part prefilled at %d points (%v): the prompt stalled it", len(between), seen)
	}
}
