//go:build cgo || js

package webgpu_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// TestReadbackInRun covers results copied to their staging buffer by the
// run itself (no submission of the read's own): a read after each run sees
// that run's answer, a host write in between is what a read then sees, and
// a second program writing the same buffer keeps reads current.
func TestReadbackInRun(t *testing.T) {
	be := open(t)
	defer be.Close()
	r := rand.New(rand.NewPCG(8, 8))
	const n = 37
	in, err := be.Alloc("in", gguf.F32, gpu.Shape4(n))
	if err != nil {
		t.Fatal(err)
	}
	next, err := be.Alloc("next", gguf.I32, gpu.Shape4(1))
	if err != nil {
		t.Fatal(err)
	}
	var progs []gpu.Program
	for _, name := range []string{"a", "b"} {
		g := gpu.NewGraph(name, 1)
		g.Do(&gpu.Argmax{In: g.Bind("in", in), Out: g.Bind("next", next)})
		p, err := be.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	read := func() int32 {
		var b [4]byte
		if err := next.Read(0, b[:]); err != nil {
			t.Fatal(err)
		}
		return int32(binary.LittleEndian.Uint32(b[:]))
	}
	for step := 0; step < 6; step++ {
		x := make([]byte, 4*n)
		want := r.IntN(n)
		for i := 0; i < n; i++ {
			v := float32(r.NormFloat64())
			if i == want {
				v = 10 + float32(step)
			}
			binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(v))
		}
		if err := in.Write(0, x); err != nil {
			t.Fatal(err)
		}
		if err := progs[step%2].Run(gpu.Params{}); err != nil {
			t.Fatal(err)
		}
		if got := read(); got != int32(want) {
			t.Fatalf("step %d: read %d after the run, want %d", step, got, want)
		}
		if got := read(); got != int32(want) {
			t.Fatalf("step %d: a second read gave %d, want %d", step, got, want)
		}
		var w [4]byte
		binary.LittleEndian.PutUint32(w[:], uint32(n+step))
		if err := next.Write(0, w[:]); err != nil {
			t.Fatal(err)
		}
		if got := read(); got != int32(n+step) {
			t.Fatalf("step %d: read %d after a host write of %d", step, got, n+step)
		}
	}
}
