package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
)

// batchPrompts are prompts of different lengths: one past the largest
// prefill chunk but one, so its prefill takes several chunks between the
// others' decode steps.
var batchPrompts = [][]int32{
	{1, 72, 101, 108, 108, 111, 32},
	{1, 33},
	append([]int32{1}, slices.Repeat([]int32{84, 104, 101, 32, 99, 97, 116, 32}, 5)...),
	{1, 50, 60, 70},
}

// streamsAlone generates each request on a session of its own, one after
// another: what each stream must give in a batch.
func streamsAlone(t *testing.T, e *Engine, reqs []Request) []*Result {
	t.Helper()
	var out []*Result
	for i, req := range reqs {
		s, err := e.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.GenerateTokens(context.Background(), batchPrompts[i%len(batchPrompts)], req, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, res)
	}
	return out
}

// streamsTogether generates the requests at once, one goroutine each on
// the sessions of a batch. Each stream waits at its first token until
// every stream has one (for at most 10 s): on a tiny model a stream can
// otherwise end before the next has started, and none would share a
// step.
func streamsTogether(t *testing.T, b *Batch, reqs []Request) []*Result {
	t.Helper()
	out := make([]*Result, len(reqs))
	errs := make([]error, len(reqs))
	var wg, first sync.WaitGroup
	first.Add(len(reqs))
	all := make(chan struct{})
	go func() { first.Wait(); close(all) }()
	for i, req := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			out[i], errs[i] = b.Sessions()[i].GenerateTokens(context.Background(), batchPrompts[i%len(batchPrompts)], req, false, func(Event) error {
				if n++; n == 1 {
					first.Done()
					select {
					case <-all:
					case <-time.After(10 * time.Second):
					}
				}
				return nil
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return out
}

// batchRequests are four streams: three greedy of different lengths, one
// sampled with its own seed and penalties (its draws are its own too).
func batchRequests() []Request {
	hot := sample.DefaultOptions()
	hot.Temperature, hot.Seed, hot.RepeatPenalty = 0.9, 17, 1.2
	return []Request{
		{Sample: greedy(), MaxTokens: 12, IgnoreEOS: true},
		{Sample: greedy(), MaxTokens: 7, IgnoreEOS: true},
		{Sample: hot, MaxTokens: 10, IgnoreEOS: true},
		{Sample: greedy(), MaxTokens: 15, IgnoreEOS: true, Stop: []string{"zz"}},
	}
}

// checkStreams runs batchRequests alone and together on e and compares.
func checkStreams(t *testing.T, e *Engine) {
	t.Helper()
	reqs := batchRequests()
	want := streamsAlone(t, e, reqs)
	b, err := e.NewBatch(len(reqs))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for round := range 2 { // the second reuses each slot's cache
		got := streamsTogether(t, b, reqs)
		for i := range reqs {
			if !slices.Equal(got[i].Tokens, want[i].Tokens) || got[i].Text != want[i].Text {
				t.Fatalf("round %d, stream %d: together %v %q, alone %v %q", round, i, got[i].Tokens, got[i].Text, want[i].Tokens, want[i].Text)
			}
		}
	}
	st := b.Stats()
	if st.Active != 0 || st.KVUsed != 0 {
		t.Fatalf("after the streams: %+v", st)
	}
	if st.Tokens <= st.Steps {
		t.Fatalf("%d tokens in %d decode steps: the streams never shared a step", st.Tokens, st.Steps)
	}
}

// TestBatchStreamsMatchAlone: four streams decoded together in one batch
// (prompts of different lengths, one prefilled in several chunks while
// the others decode, one sampled) give exactly the tokens and text each
// gives on a session of its own, on every architecture's tiny model.
func TestBatchStreamsMatchAlone(t *testing.T) {
	dir := t.TempDir()
	for _, a := range synth.Archs {
		t.Run(string(a), func(t *testing.T) {
			path := filepath.Join(dir, string(a)+".gguf")
			if err := synth.WriteFile(path, "tiny", a, "Q8_0", 3); err != nil {
				t.Fatal(err)
			}
			e, err := Load(path, Options{Threads: 2, Context: 96})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			checkStreams(t, e)
		})
	}
}

// TestBatchCancelFreesSlot: a stream cancelled in the middle of a batch
// stops promptly with what it had, the other stream of the batch goes on
// untouched, and the cancelled stream's session then serves a new
// request that gives what it gives alone.
func TestBatchCancelFreesSlot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(path, "tiny", synth.Llama, "Q8_0", 3); err != nil {
		t.Fatal(err)
	}
	e, err := Load(path, Options{Threads: 2, Context: 96})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	long := Request{Sample: greedy(), MaxTokens: 60, IgnoreEOS: true}
	want := streamsAlone(t, e, []Request{long, long})
	b, err := e.NewBatch(2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var other *Result
	var otherErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		other, otherErr = b.Sessions()[1].GenerateTokens(context.Background(), batchPrompts[1], long, false, nil)
	}()
	n := 0
	res, err := b.Sessions()[0].GenerateTokens(ctx, batchPrompts[0], long, false, func(Event) error {
		if n++; n == 5 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || res == nil || res.Stats.StopReason != "cancelled" || len(res.Tokens) > 6 {
		t.Fatalf("cancelled stream: %v, %+v", err, res)
	}
	if !slices.Equal(res.Tokens, want[0].Tokens[:len(res.Tokens)]) {
		t.Fatalf("cancelled stream's tokens %v, alone %v", res.Tokens, want[0].Tokens)
	}
	again, err := b.Sessions()[0].GenerateTokens(context.Background(), batchPrompts[0], long, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if otherErr != nil {
		t.Fatal(otherErr)
	}
	if !slices.Equal(other.Tokens, want[1].Tokens) {
		t.Fatalf("the other stream: %v, alone %v", other.Tokens, want[1].Tokens)
	}
	if !slices.Equal(again.Tokens, want[0].Tokens) {
		t.Fatalf("the freed slot's next request: %v, alone %v", again.Tokens, want[0].Tokens)
	}
	if st := b.Stats(); st.Active != 0 {
		t.Fatalf("after the streams: %+v", st)
	}
}

// TestBatchClosed: a batch refuses runs once closed, with an error.
func TestBatchClosed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if err := synth.WriteFile(path, "tiny", synth.Qwen3, "Q8_0", 3); err != nil {
		t.Fatal(err)
	}
	e, err := Load(path, Options{Threads: 2, Context: 32})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.NewBatch(0); err == nil {
		t.Fatal("a batch of 0 sessions opened")
	}
	if _, err := e.NewBatch(gpu.MaxPlaces + 1); err == nil {
		t.Fatal(fmt.Sprintf("a batch of %d sessions opened", gpu.MaxPlaces+1))
	}
	b, err := e.NewBatch(1)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	done := make(chan error, 1)
	go func() {
		_, err := b.Sessions()[0].GenerateTokens(context.Background(), []int32{1, 2}, Request{Sample: greedy(), MaxTokens: 3}, false, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, errBatchClosed) {
			t.Fatalf("closed batch: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a run on a closed batch hangs")
	}
}
