//go:build cgo && !js

package webgpu_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// Weight uploads wait for a submission only up to the backend's bound:
// past it they are submitted (and their staging memory freed) as they
// come, a weight larger than the bound in pieces, and the weights read
// back as written. A model's load ends with none waiting, so the first
// step does no upload.
func TestWeightUploadsSubmitted(t *testing.T) {
	be := open(t)
	defer be.Close()
	const limit = 1 << 20
	webgpu.UploadFlush(be, limit)
	rng := rand.New(rand.NewPCG(7, 8))
	var bufs []gpu.Buffer
	var want [][]byte
	submitted := 0
	for i := range 13 {
		n := 60_000 + rng.IntN(40_000) // values: 240 to 400 KB a weight
		if i == 12 {
			n = 900_001 // 3.6 MB, past the bound: written in pieces
		}
		data := make([]byte, 4*n)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		before, submits := webgpu.PendingUpload(be), webgpu.UploadSubmits(be)
		b, err := be.Weight(fmt.Sprintf("w%d", i), gguf.F32, gpu.Shape4(n), data)
		if err != nil {
			t.Fatal(err)
		}
		after := webgpu.PendingUpload(be)
		if s := webgpu.UploadSubmits(be) - submits; i == 12 && s < 3 {
			t.Errorf("the 3.6 MB weight went in %d submissions: want one a MiB (not written in pieces of the bound)", s)
		}
		if after >= limit {
			t.Fatalf("weight %d: %d bytes wait for a submission, past the bound of %d", i, after, limit)
		}
		if after != before+len(data) {
			submitted++
			if after != 0 && len(data) < limit {
				t.Fatalf("weight %d: %d bytes wait after a submission", i, after)
			}
		}
		bufs, want = append(bufs, b), append(want, data)
	}
	if submitted < 3 {
		t.Errorf("%d submissions for 13 weights of 240-400 KB with a bound of 1 MiB: want at least 3", submitted)
	}
	for i, b := range bufs {
		got := make([]byte, len(want[i]))
		if err := b.Read(0, got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[i]) {
			t.Fatalf("weight %d reads back other bytes than written", i)
		}
	}

	path := writeTiny(t, t.TempDir(), "tiny", synth.Llama, "Q4_0", 3)
	loadModel(t, be, path)
	if n := webgpu.PendingUpload(be); n != 0 {
		t.Errorf("%d weight bytes still wait for a submission after the model's load", n)
	}
}
