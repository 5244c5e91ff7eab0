//go:build cgo && !js

package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu/gputest"
	"github.com/emberllm/ember/gpu/webgpu"
)

// paritySteps is the teacher-forced steps each model runs: the length of
// path gputest.ParityBound was measured on. Its share of same first
// choices is a count over the steps, and over fewer steps the near ties of
// a tiny random model weigh more: tiny-lite's first 16 steps hold 3 flips
// (one where lavapipe's top two logits are 4e-5 apart), 81%, where its 64
// hold 6, 91%. SwiftShader makes this the slow part of the package: a
// tiny model's decode step takes it 0.08 to 0.5 s here, and each model's
// kernels compile anew (4 to 8 s).
const paritySteps = 64

// parityContext is the KV cache both sides allocate: the prompt and the
// steps fit. Small, because SwiftShader's cost per decode step grows with
// the cache (storiesContext says why).
const parityContext = 72

// Tiny synthetic models of every architecture in the browser's WebGPU
// (SwiftShader) and natively on lavapipe, through the same engine path
// (engine.New, then Session.Eval of the growing sequence and Logits, as
// cmd/wasm's evaluate does: the same prefill chunks, the same graphs):
// native decodes greedily, the tab replays that path (teacher forcing),
// and the tab's next-token distributions are held to native's under
// gputest.ParityBound, the bound every model parity test uses (llama.cpp's
// own spread between its CPU builds; its comment has the measurement).
// The models are gputest.ParityModels.
//
// make test runs a dense model (Q4_0) and a mixture of experts (Q4_K):
// the kernels are the WGSL that lavapipe runs natively, and
// TestModelParityWithCPU holds every architecture's to the CPU there;
// what the browser adds is its side of the binding (buffers written
// through the wasm memory, mapped reads, dispatches through syscall/js),
// which those two exercise in full, in about 50 s on 2 busy cores.
// EMBER_PARITY=all runs every architecture (3.5 to 7 minutes here).
func TestTabParity(t *testing.T) {
	ctx := page(t)
	prompt := make([]int32, 5)
	rng := rand.New(rand.NewPCG(21, 5))
	for i := range prompt {
		prompt[i] = int32(rng.IntN(256)) // below every tiny vocabulary's size
	}
	all := os.Getenv("EMBER_PARITY") == "all"
	quick := map[string]bool{"tiny-llama-Q4_0": true, "tiny-qwen3moe-Q4_K": true}
	for _, m := range gputest.ParityModels {
		name := m.Name()
		if !quick[name] && !all {
			continue
		}
		t.Run(name, func(t *testing.T) {
			file := name + ".gguf"
			path := filepath.Join(suite.models, file)
			if err := synth.WriteFile(path, m.Shape, m.Arch, m.Type, m.Seed); err != nil {
				t.Fatal(err)
			}
			ref := nativeEvaluate(t, path, prompt, paritySteps)
			start := time.Now()
			jsRun[loadInfo](t, ctx, 60*time.Second, fmt.Sprintf(`ember.load("models/%s", {backend: "webgpu", context: %d})`, file, parityContext))
			ids, _ := json.Marshal(prompt)
			forced, _ := json.Marshal(ref.Next[:paritySteps-1])
			got := jsRun[gputest.Decoded](t, ctx, 120*time.Second, fmt.Sprintf(`ember.evaluate(%s, %d, %s)`, ids, paritySteps, forced))
			kl, top1 := gputest.KL(got, ref)
			t.Logf("mean KL(lavapipe || browser) %.3g over %d steps, same first choice on %.1f%% (%.1f s in the browser)",
				kl, paritySteps, 100*top1, time.Since(start).Seconds())
			if err := gputest.ParityBound.Check(kl, top1); err != nil {
				t.Error(err)
			}
			// Where the two part most: a kernel wrong in the browser
			// shows from the first steps; a near tie in an expert router
			// gives one step far apart.
			worst, at := 0.0, 0
			for k := range ref.Logits {
				kl, _ := gputest.Divergence(gputest.LogitRows(got.Logits[k:k+1]), gputest.LogitRows(ref.Logits[k:k+1]), 0)
				if kl > worst {
					worst, at = kl, k
				}
			}
			t.Logf("largest step KL %.3g at step %d", worst, at)
		})
	}
}

// nativeEvaluate is cmd/wasm's evaluate natively on WebGPU (lavapipe
// here): the prompt, then n-1 tokens each the previous step's greedy
// choice.
func nativeEvaluate(t *testing.T, path string, prompt []int32, n int) gputest.Decoded {
	t.Helper()
	be, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := gguf.Open(path)
	if err != nil {
		be.Close()
		t.Fatal(err)
	}
	defer r.Close()
	e, err := engine.New(r, engine.Options{Backend: be, Context: parityContext})
	if err != nil {
		be.Close()
		t.Fatal(err)
	}
	defer e.Close()
	sess, err := e.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out gputest.Decoded
	ids := append([]int32(nil), prompt...)
	for k := range n {
		if k > 0 {
			ids = append(ids, out.Next[k-1])
		}
		if err := sess.Eval(context.Background(), ids); err != nil {
			t.Fatal(err)
		}
		l, err := sess.Logits()
		if err != nil {
			t.Fatal(err)
		}
		best := 0
		for i, v := range l {
			if v > l[best] {
				best = i
			}
		}
		out.Logits = append(out.Logits, append([]float32(nil), l...))
		out.Next = append(out.Next, int32(best))
	}
	return out
}
