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
	in, next := argmaxBuffers(t, be, n)
	var progs []gpu.Program
	for _, name := range []string{"a", "b"} {
		progs = append(progs, argmaxProgram(t, be, name, in, next))
	}
	read := func() int32 {
		var b [4]byte
		if err := next.Read(0, b[:]); err != nil {
			t.Fatal(err)
		}
		return int32(binary.LittleEndian.Uint32(b[:]))
	}
	for step := 0; step < 6; step++ {
		want := r.IntN(n)
		writeArgmaxInput(t, r, in, n, want)
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

// TestStartRead: a started read returns the bytes its buffer held when it
// started, though the host wrote the buffer before waiting, and a result
// buffer's next run (which copies into its own staging buffer) does not
// change what a read started before it returns.
func TestStartRead(t *testing.T) {
	be := open(t)
	defer be.Close()
	r := rand.New(rand.NewPCG(3, 17))
	words := func(n int) []byte {
		b := make([]byte, 4*n)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(b[4*i:], r.Uint32())
		}
		return b
	}
	x, err := be.Alloc("x", gguf.I32, gpu.Shape4(9))
	if err != nil {
		t.Fatal(err)
	}
	old := words(9)
	if err := x.Write(0, old); err != nil {
		t.Fatal(err)
	}
	wait, err := x.(gpu.ReadStarter).StartRead(8, 20)
	if err != nil {
		t.Fatal(err)
	}
	now := words(9)
	if err := x.Write(0, now); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 20)
	if err := wait(got); err != nil {
		t.Fatal(err)
	}
	if string(got) != string(old[8:28]) {
		t.Fatalf("started read gave % x, want the bytes before the write % x", got, old[8:28])
	}
	all := make([]byte, 36)
	if err := x.Read(0, all); err != nil {
		t.Fatal(err)
	}
	if string(all) != string(now) {
		t.Fatalf("read after the write gave % x, want % x", all, now)
	}

	// a result buffer: argmax of in, read started between two runs
	const n = 29
	in, next := argmaxBuffers(t, be, n)
	p := argmaxProgram(t, be, "argmax", in, next)
	run := func(top int) {
		writeArgmaxInput(t, r, in, n, top)
		if err := p.Run(gpu.Params{}); err != nil {
			t.Fatal(err)
		}
	}
	a, b := r.IntN(n), r.IntN(n-1)
	if b >= a {
		b++
	}
	run(a)
	wait, err = next.(gpu.ReadStarter).StartRead(0, 4)
	if err != nil {
		t.Fatal(err)
	}
	run(b)
	var w [4]byte
	if err := wait(w[:]); err != nil {
		t.Fatal(err)
	}
	if got := int32(binary.LittleEndian.Uint32(w[:])); got != int32(a) {
		t.Fatalf("read started after the first run gave %d, want %d (the second run's is %d)", got, a, b)
	}
	if err := next.Read(0, w[:]); err != nil {
		t.Fatal(err)
	}
	if got := int32(binary.LittleEndian.Uint32(w[:])); got != int32(b) {
		t.Fatalf("read after the second run gave %d, want %d", got, b)
	}
}

// argmaxBuffers allocates an argmax's F32 input of n values and its I32
// result.
func argmaxBuffers(t *testing.T, be gpu.Backend, n int) (in, next gpu.Buffer) {
	t.Helper()
	in, err := be.Alloc("in", gguf.F32, gpu.Shape4(n))
	if err != nil {
		t.Fatal(err)
	}
	if next, err = be.Alloc("next", gguf.I32, gpu.Shape4(1)); err != nil {
		t.Fatal(err)
	}
	return in, next
}

// TestPrepare: a run recorded ahead reads its input as the host wrote it
// after the recording, leaves its result for a read like any run, and
// refuses a second submission.
func TestPrepare(t *testing.T) {
	be := open(t)
	defer be.Close()
	r := rand.New(rand.NewPCG(21, 4))
	const n = 41
	in, next := argmaxBuffers(t, be, n)
	p := argmaxProgram(t, be, "argmax", in, next)
	for step := 0; step < 4; step++ {
		submit, err := p.(gpu.Preparer).Prepare()
		if err != nil {
			t.Fatal(err)
		}
		top := r.IntN(n)
		writeArgmaxInput(t, r, in, n, top)
		if err := submit(gpu.Params{}); err != nil {
			t.Fatal(err)
		}
		var w [4]byte
		if err := next.Read(0, w[:]); err != nil {
			t.Fatal(err)
		}
		if got := int32(binary.LittleEndian.Uint32(w[:])); got != int32(top) {
			t.Fatalf("step %d: the prepared run chose %d, want %d (its input as written after the recording)", step, got, top)
		}
		if err := submit(gpu.Params{}); err == nil {
			t.Fatalf("step %d: a prepared run was submitted twice", step)
		}
	}
}

// writeArgmaxInput writes n normal values to in, the one at top raised
// above them all (normal draws stay far below 10).
func writeArgmaxInput(t *testing.T, r *rand.Rand, in gpu.Buffer, n, top int) {
	t.Helper()
	x := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		v := float32(r.NormFloat64())
		if i == top {
			v = 10 + float32(r.IntN(5))
		}
		binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(v))
	}
	if err := in.Write(0, x); err != nil {
		t.Fatal(err)
	}
}

// argmaxProgram compiles a graph writing the argmax of in to next.
func argmaxProgram(t *testing.T, be gpu.Backend, name string, in, next gpu.Buffer) gpu.Program {
	t.Helper()
	g := gpu.NewGraph(name, 1)
	g.Do(&gpu.Argmax{In: g.Bind("in", in), Out: g.Bind("next", next)})
	p, err := be.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
