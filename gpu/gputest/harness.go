package gputest

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
)

// env is one test's backend, random source and graph under construction.
type env struct {
	t   testing.TB
	be  gpu.Backend
	rng *rand.Rand
	g   *gpu.Graph
}

func newEnv(t testing.TB, be gpu.Backend, seed uint64, tokens int) *env {
	return &env{t: t, be: be, rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), g: gpu.NewGraph(t.Name(), tokens)}
}

// vals returns n random values in ±[0.05, 1)·scale: never zero, so a
// kernel that skips an element or a block cannot go unnoticed.
func (e *env) vals(n int, scale float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		v := 0.05 + 0.95*e.rng.Float64()
		if e.rng.IntN(2) == 0 {
			v = -v
		}
		out[i] = v * scale
	}
	return out
}

func f32bytes(x []float64) []byte {
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
	}
	return b
}

func i32bytes(x []int) []byte {
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(v)))
	}
	return b
}

// round32 is what a float64 becomes when uploaded as F32.
func round32(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(float32(v))
	}
	return out
}

func (e *env) fatal(format string, args ...any) {
	e.t.Helper()
	e.t.Fatalf(format, args...)
}

// input allocates an external F32 buffer holding x (rounded to float32,
// which is also what the returned slice holds) and binds it.
func (e *env) input(name string, x []float64, dims ...int) (*gpu.Tensor, []float64) {
	e.t.Helper()
	b, err := e.be.Alloc(name, gguf.F32, gpu.Shape4(dims...))
	if err != nil {
		e.fatal("alloc %s: %v", name, err)
	}
	if err := b.Write(0, f32bytes(x)); err != nil {
		e.fatal("write %s: %v", name, err)
	}
	return e.g.Bind(name, b), round32(x)
}

func (e *env) ints(name string, x []int, dims ...int) *gpu.Tensor {
	e.t.Helper()
	b, err := e.be.Alloc(name, gguf.I32, gpu.Shape4(dims...))
	if err != nil {
		e.fatal("alloc %s: %v", name, err)
	}
	if err := b.Write(0, i32bytes(x)); err != nil {
		e.fatal("write %s: %v", name, err)
	}
	return e.g.Bind(name, b)
}

// output allocates and binds an external buffer for results.
func (e *env) output(name string, typ gguf.TensorType, dims ...int) *gpu.Tensor {
	e.t.Helper()
	b, err := e.be.Alloc(name, typ, gpu.Shape4(dims...))
	if err != nil {
		e.fatal("alloc %s: %v", name, err)
	}
	return e.g.Bind(name, b)
}

// weight makes a weight of type typ from random values and returns the
// values the weight actually holds (dequantized), as float64.
func (e *env) weight(name string, typ gguf.TensorType, scale float64, dims ...int) (*gpu.Tensor, []float64) {
	e.t.Helper()
	shape := gpu.Shape4(dims...)
	n := shape[0] * shape[1] * shape[2] * shape[3]
	x := e.vals(n, scale)
	f := make([]float32, n)
	for i, v := range x {
		f[i] = float32(v)
	}
	data := make([]byte, gpu.Bytes(typ, shape))
	if err := quant.Quantize(typ, f, data); err != nil {
		e.fatal("quantize %s: %v", name, err)
	}
	if err := quant.Dequantize(typ, data, f); err != nil {
		e.fatal("dequantize %s: %v", name, err)
	}
	b, err := e.be.Weight(name, typ, shape, data)
	if err != nil {
		e.fatal("weight %s: %v", name, err)
	}
	out := make([]float64, n)
	for i, v := range f {
		out[i] = float64(v)
	}
	return e.g.Bind(name, b), out
}

// run compiles the graph and runs it at position pos; on a backend other
// than the CPU, the same graph runs on the CPU backend too, and each
// output must be near the CPU's (mirror.go).
func (e *env) run(pos int) gpu.Program {
	e.t.Helper()
	return e.runWith(gpu.Params{Pos: pos})
}

// runWith is run with params (tokens placed one by one, gpu.Place).
func (e *env) runWith(params gpu.Params) gpu.Program {
	e.t.Helper()
	var m *cpuMirror
	if _, onCPU := e.be.(*cpu.Backend); !onCPU {
		m = mirror(e.t, e.g)
	}
	p, err := e.be.Compile(e.g)
	if err != nil {
		e.fatal("compile: %v", err)
	}
	if err := p.Run(params); err != nil {
		e.fatal("run: %v", err)
	}
	if m != nil {
		m.check(e.t, e.g, params)
	}
	return p
}

func readBytes(t testing.TB, x *gpu.Tensor) []byte {
	t.Helper()
	b := make([]byte, gpu.Bytes(x.Type, x.Shape))
	if err := x.Buf.Read(0, b); err != nil {
		t.Fatalf("read %s: %v", x.Name, err)
	}
	return b
}

// readF returns an external F32 or F16 tensor's values.
func readF(t testing.TB, x *gpu.Tensor) []float64 {
	t.Helper()
	b := readBytes(t, x)
	n := x.Elements()
	f := make([]float32, n)
	if err := quant.Dequantize(x.Type, b, f); err != nil {
		t.Fatalf("read %s: %v", x.Name, err)
	}
	out := make([]float64, n)
	for i, v := range f {
		out[i] = float64(v)
	}
	return out
}

func readI(t testing.TB, x *gpu.Tensor) []int {
	t.Helper()
	b := readBytes(t, x)
	out := make([]int, len(b)/4)
	for i := range out {
		out[i] = int(int32(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return out
}

// near compares got with want element by element against tol[i] (or
// tol[0] for all), reporting the worst offenders.
func near(t testing.TB, what string, got, want, tol []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	bad := 0
	for i := range got {
		tl := tol[0]
		if len(tol) > 1 {
			tl = tol[i]
		}
		d := math.Abs(got[i] - want[i])
		if !(d <= tl) {
			if bad < 5 {
				t.Errorf("%s[%d] = %.9g, want %.9g (|diff| %.3g > tol %.3g)", what, i, got[i], want[i], d, tl)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d values out of tolerance", what, bad, len(got))
	}
}

// relTol is rel·|want[i]| + abs for every element.
func relTol(want []float64, rel, abs float64) []float64 {
	out := make([]float64, len(want))
	for i, w := range want {
		out[i] = rel*math.Abs(w) + abs
	}
	return out
}

func name(parts ...any) string { return fmt.Sprint(parts...) }
