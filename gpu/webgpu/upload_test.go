//go:build cgo && !js

package webgpu_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/gputest"
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

// WeightFrom takes a weight's bytes from a reader, a piece at a time, as
// they come (a reader giving one byte a call too), submitting past the
// upload bound as Weight does; the bytes read back as written, and a
// reader that ends early is an error naming the weight and how far it got.
func TestWeightFrom(t *testing.T) {
	be := open(t)
	defer be.Close()
	st := be.(gpu.WeightStreamer)
	webgpu.UploadFlush(be, 1<<20)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct {
		n       int
		oneByte bool
	}{{18 * 1001, true}, {18 * 500_001, false}} { // Q4_0 blocks, sizes not a multiple of 4; 9 MB, past a chunk
		data := make([]byte, c.n)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		var r io.Reader = bytes.NewReader(data)
		if c.oneByte {
			r = iotest.OneByteReader(r)
		}
		submits := webgpu.UploadSubmits(be)
		b, err := st.WeightFrom("w", gguf.Q4_0, gpu.Shape4(32*c.n/18), r)
		if err != nil {
			t.Fatal(err)
		}
		if c.n > 1<<20 && webgpu.UploadSubmits(be)-submits < 8 {
			t.Errorf("%d bytes went up in %d submissions, want one a MiB", c.n, webgpu.UploadSubmits(be)-submits)
		}
		got := make([]byte, c.n)
		if err := b.Read(0, got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("%d bytes streamed read back other bytes", c.n)
		}
	}
	_, err := st.WeightFrom("short", gguf.F32, gpu.Shape4(1000), bytes.NewReader(make([]byte, 3000)))
	if err == nil || !strings.Contains(err.Error(), "short") || !strings.Contains(err.Error(), "of 4000") {
		t.Errorf("a reader 1000 bytes short: %v, want an error naming the weight and its size", err)
	}
}

// A model read through io.ReaderAt, not mapped (as in the browser), loads
// on WebGPU through WeightFrom, and decodes to the same logits bit for bit
// as the mapped file.
func TestModelStreamedWeights(t *testing.T) {
	path := writeTiny(t, t.TempDir(), "tiny", synth.Qwen3MoE, "Q4_K", 5)
	prompt := randomPrompt(3, 4)
	be := open(t)
	defer be.Close()
	mapped := decode(t, be, path, prompt, 6, nil)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := gguf.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	be2 := &streamCounter{Backend: open(t)}
	defer be2.Close()
	streamed, err := gputest.DecodeFrom(be2, r, prompt, 6, mapped.Next)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(r.Tensors); be2.n != want {
		t.Fatalf("%d weights streamed through WeightFrom, want the file's %d", be2.n, want)
	}
	for k := range mapped.Logits {
		for i, v := range mapped.Logits[k] {
			if math.Float32bits(streamed.Logits[k][i]) != math.Float32bits(v) {
				t.Fatalf("step %d logit %d: %g streamed, %g mapped", k, i, streamed.Logits[k][i], v)
			}
		}
	}
}

// streamCounter counts the weights a backend takes through WeightFrom.
type streamCounter struct {
	gpu.Backend
	n int
}

func (s *streamCounter) WeightFrom(name string, typ gpu.Type, shape [4]int, r io.Reader) (gpu.Buffer, error) {
	s.n++
	return s.Backend.(gpu.WeightStreamer).WeightFrom(name, typ, shape, r)
}
