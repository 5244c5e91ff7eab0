//go:build cgo && !js

package server

import (
	"sync/atomic"
	"testing"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// openWebGPU opens this machine's WebGPU adapter (lavapipe in CI). No
// adapter is a failure, as in gpu/webgpu's tests: CI has one.
func openWebGPU(t testing.TB) gpu.Backend {
	t.Helper()
	be, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return be
}

// copyCounter is a WebGPU backend counting the device-side copies the
// engine queues: chained greedy decode makes two a step (engine/chain.go),
// nothing else in a greedy request makes any.
type copyCounter struct {
	gpu.Backend
	copies atomic.Int64
}

func (c *copyCounter) CopyBuffer(dst gpu.Buffer, dstOff int, src gpu.Buffer, srcOff, n int) error {
	c.copies.Add(1)
	return c.Backend.(gpu.Copier).CopyBuffer(dst, dstOff, src, srcOff, n)
}

// capabilitiesHidden is a WebGPU backend showing none of its optional
// capabilities: the engine runs it one decode step at a time.
type capabilitiesHidden struct{ gpu.Backend }

// A server loading its model on WebGPU keeps the backend it was given, so
// greedy requests decode through the chained path (each step's token
// copied on the device into the next step), and their text is that of
// the same model decoded one step at a time.
func TestServeWebGPUChainedDecode(t *testing.T) {
	plain, _ := tinyModels(t)
	cc := &copyCounter{Backend: openWebGPU(t)}
	chained := startServerWith(t, Config{}, plain, engine.Options{Backend: cc})
	if chained.local.eng.Backend != gpu.Backend(cc) {
		t.Fatalf("the server's engine runs on %T, not the backend it was given", chained.local.eng.Backend)
	}
	steps := startServerWith(t, Config{}, plain, engine.Options{Backend: capabilitiesHidden{openWebGPU(t)}})

	const n = 24
	body := map[string]any{"prompt": "Hello ", "max_tokens": n, "temperature": 0, "ignore_eos": true}
	complete := func(ts *testServer) string {
		t.Helper()
		status, out := ts.post(t, "/v1/completions", body)
		if status != 200 {
			t.Fatalf("status %d: %s", status, out)
		}
		r := decode[chatResp](t, out)
		if len(r.Choices) != 1 || r.Choices[0].Text == nil || r.Usage.CompletionTokens != n {
			t.Fatalf("bad completion: %s", out)
		}
		return *r.Choices[0].Text
	}
	before := cc.copies.Load()
	got := complete(chained)
	if cc.copies.Load() == before {
		t.Fatalf("a greedy request of %d tokens made no device copies: the server decoded one step at a time", n)
	}
	if want := complete(steps); got != want {
		t.Fatalf("chained decode under serve: %q, one step at a time: %q", got, want)
	}
	t.Logf("%d tokens with %d device copies: %q", n, cc.copies.Load()-before, got)
}
