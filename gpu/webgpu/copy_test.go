//go:build cgo || js

package webgpu_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// TestCopyBufferOrder checks that queued device copies keep the order of
// the calls around host writes, reads and runs, and that bad copies are
// refused with a reason.
func TestCopyBufferOrder(t *testing.T) {
	be := open(t)
	defer be.Close()
	cp := be.(gpu.Copier)
	r := rand.New(rand.NewPCG(3, 9))
	const n = 24
	random := func() []byte {
		b := make([]byte, 4*n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	}
	alloc := func(name string) gpu.Buffer {
		b, err := be.Alloc(name, gguf.I32, gpu.Shape4(n))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := alloc("a"), alloc("b"), alloc("c")
	read := func(buf gpu.Buffer) []byte {
		out := make([]byte, 4*n)
		if err := buf.Read(0, out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	x, y := random(), random()
	must(a.Write(0, x))
	// A copy, then a host write to its source: the copy sees the old bytes.
	must(cp.CopyBuffer(b, 8, a, 4, 40))
	must(a.Write(0, y))
	want := make([]byte, 4*n)
	copy(want[8:48], x[4:44])
	if got := read(b); !bytes.Equal(got, want) {
		t.Fatalf("copy before a write to its source:\n got %v\nwant %v", got, want)
	}
	// A host write to the destination, then a copy over part of it.
	z := random()
	must(c.Write(0, z))
	must(cp.CopyBuffer(c, 0, a, 0, 16))
	copy(z, y[:16])
	if got := read(c); !bytes.Equal(got, z) {
		t.Fatalf("copy after a write to its destination:\n got %v\nwant %v", got, z)
	}
	// A copy queued before a run is done before the run's kernels: the run
	// adds in (copied from a) to itself.
	f, err := be.Alloc("f", gguf.F32, gpu.Shape4(n))
	must(err)
	src, err := be.Alloc("src", gguf.F32, gpu.Shape4(n))
	must(err)
	g := gpu.NewGraph("double", 1)
	in := g.Bind("f", f)
	g.Do(&gpu.Add{A: in, B: in, Out: in})
	p, err := be.Compile(g)
	must(err)
	vals := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		vals[4*i+3] = 0x3f // with the next byte at 0x80 or more: 1 <= v < 2, exact when doubled
		vals[4*i+2] = byte(0x80 + r.IntN(0x7f))
	}
	must(src.Write(0, vals))
	must(cp.CopyBuffer(f, 0, src, 0, 4*n))
	must(p.Run(gpu.Params{}))
	got := read(f)
	for i := 0; i < n; i++ {
		if got[4*i+3] != 0x40 || got[4*i+2] != vals[4*i+2]-0x80 {
			t.Fatalf("value %d: run after copy gave bytes %v from %v", i, got[4*i:4*i+4], vals[4*i:4*i+4])
		}
	}
	for _, bad := range []struct {
		name             string
		dOff, sOff, size int
		want             string
	}{
		{"past the end", 4, 0, 4 * n, "out of range"},
		{"negative", -4, 0, 4, "out of range"},
		{"unaligned", 2, 0, 4, "4-byte words"},
		{"empty", 0, 0, 0, "out of range"},
	} {
		err := cp.CopyBuffer(b, bad.dOff, a, bad.sOff, bad.size)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v, want one mentioning %q", bad.name, err, bad.want)
		}
	}
	w, err := be.Weight("w", gguf.I32, gpu.Shape4(n), random())
	must(err)
	if err := cp.CopyBuffer(w, 0, a, 0, 4); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("copy into a weight: error %v", err)
	}
}

// ReadBandwidth streams its buffer through a kernel and reports a rate:
// positive and finite on any adapter (lavapipe here).
func TestReadBandwidth(t *testing.T) {
	be := open(t)
	defer be.Close()
	gbs, err := be.(gpu.BandwidthMeter).ReadBandwidth()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("streaming read: %.1f GB/s", gbs)
	if !(gbs > 0) || math.IsInf(gbs, 0) {
		t.Fatalf("read bandwidth %v GB/s", gbs)
	}
}
