package gputest

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
)

// Besides its float64 references, the suite holds every other backend to
// the CPU backend as llama.cpp's test-backend-ops holds its backends to
// its CPU backend: the same graph on the same inputs, each output's
// normalized mean squared error Σ(got-cpu)² / Σcpu² under a bound for the
// op that wrote it (MaxNMSE). The float64 references check what an op
// computes; this checks that the two backends compute it alike.

// MaxNMSE is the bound on an output's normalized mean squared error from
// the CPU backend's, by the op writing it: test-backend-ops's own bounds
// (tests/test-backend-ops.cpp at llama.cpp de3ff81, the version
// node-llama-cpp 3.22.1 ships): 5e-4 for products (MUL_MAT, MUL_MAT_ID)
// and attention (FLASH_ATTN_EXT), 1e-6 for the router's softmax
// (SOFT_MAX), 0 for a copy to the same type (CPY), and its default 1e-7
// for the rest.
func MaxNMSE(op gpu.Op) float64 {
	switch o := op.(type) {
	case *gpu.MatMul, *gpu.MatMulID, *gpu.Attention:
		return 5e-4
	case *gpu.Route:
		return 1e-6
	case *gpu.Copy:
		if o.In.Type == o.Out.Type {
			return 0
		}
	}
	return 1e-7
}

// cpuMirror is a graph cloned onto a CPU backend, with copies of the
// external buffers' bytes as they were before a run.
type cpuMirror struct {
	be *cpu.Backend
	g  *gpu.Graph
	// of maps each tensor of the original graph to its clone.
	of map[*gpu.Tensor]*gpu.Tensor
}

// mirror clones g onto a new CPU backend, its external buffers holding the
// bytes g's hold now. Call it before running g.
func mirror(t testing.TB, g *gpu.Graph) *cpuMirror {
	t.Helper()
	m := &cpuMirror{be: cpu.New(2), of: map[*gpu.Tensor]*gpu.Tensor{}}
	m.g = gpu.NewGraph(g.Name+".cpu", g.Tokens)
	m.g.Independent = g.Independent
	bufs := map[gpu.Buffer]gpu.Buffer{}
	for _, x := range g.Tensors {
		c := *x
		switch x.Kind {
		case gpu.External:
			b, ok := bufs[x.Buf]
			if !ok {
				data := make([]byte, gpu.Bytes(x.Buf.Type(), x.Buf.Shape()))
				if err := x.Buf.Read(0, data); err != nil {
					t.Fatalf("mirror: read %s: %v", x.Name, err)
				}
				var err error
				if b, err = m.be.Alloc(x.Name, x.Buf.Type(), x.Buf.Shape()); err == nil {
					err = b.Write(0, data)
				}
				if err != nil {
					t.Fatalf("mirror: %s on the CPU: %v", x.Name, err)
				}
				bufs[x.Buf] = b
			}
			c.Buf = b
		case gpu.View:
			c.Base = m.of[x.Base]
		}
		m.of[x] = &c
		m.g.Tensors = append(m.g.Tensors, &c)
	}
	for _, op := range g.Ops {
		m.g.Ops = append(m.g.Ops, m.cloneOp(op))
	}
	return m
}

// cloneOp is a copy of op whose tensor operands are their clones.
func (m *cpuMirror) cloneOp(op gpu.Op) gpu.Op {
	v := reflect.ValueOf(op).Elem()
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	tensor := reflect.TypeFor[*gpu.Tensor]()
	for i := range c.NumField() {
		if f := c.Field(i); f.Type() == tensor && !f.IsNil() {
			f.Set(reflect.ValueOf(m.of[f.Interface().(*gpu.Tensor)]))
		}
	}
	return c.Addr().Interface().(gpu.Op)
}

// check runs the clone with params and holds each float output g wrote
// to the CPU's under MaxNMSE of the last op writing it. Integer outputs
// (ids chosen from values that may tie) are left to the float64
// references.
func (m *cpuMirror) check(t testing.TB, g *gpu.Graph, params gpu.Params) {
	t.Helper()
	defer m.be.Close()
	p, err := m.be.Compile(m.g)
	if err != nil {
		t.Fatalf("the graph on the CPU backend: compile: %v", err)
	}
	if err := p.Run(params); err != nil {
		t.Fatalf("the graph on the CPU backend: run: %v", err)
	}
	bound := map[gpu.Buffer]float64{}
	var order []*gpu.Tensor
	for _, op := range g.Ops {
		for _, o := range op.Outputs() {
			r := o.Root()
			if r.Kind != gpu.External || (r.Type != gguf.F32 && r.Type != gguf.F16) {
				continue
			}
			if _, seen := bound[r.Buf]; !seen {
				order = append(order, r)
			}
			bound[r.Buf] = MaxNMSE(op)
		}
	}
	for _, r := range order {
		got, want := floats(t, r.Buf), floats(t, m.of[r].Buf)
		if e := nmse(got, want); !(e <= bound[r.Buf]) {
			t.Errorf("%s: normalized mean squared error %.3g from the CPU backend's, above the op's %.0g", r.Name, e, bound[r.Buf])
		}
	}
}

// floats reads an F32 or F16 buffer's values.
func floats(t testing.TB, b gpu.Buffer) []float64 {
	t.Helper()
	data := make([]byte, gpu.Bytes(b.Type(), b.Shape()))
	if err := b.Read(0, data); err != nil {
		t.Fatalf("read: %v", err)
	}
	out := make([]float64, len(data)/b.Type().TypeSize())
	for i := range out {
		if b.Type() == gguf.F16 {
			out[i] = float64(quant.F16ToF32(binary.LittleEndian.Uint16(data[2*i:])))
		} else {
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:])))
		}
	}
	return out
}

// nmse is Σ(a-b)² / Σb², as test-backend-ops computes it, over the values
// where a and b differ or are finite (equal infinities, the top-k's
// padding, add nothing; an infinity against another value is +Inf);
// where b is all zeros, a must be too (0, else +Inf).
func nmse(a, b []float64) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("nmse of %d and %d values", len(a), len(b)))
	}
	var d, s float64
	for i := range a {
		if math.IsInf(a[i], 0) || math.IsInf(b[i], 0) {
			if a[i] != b[i] {
				return math.Inf(1)
			}
			continue
		}
		d += (a[i] - b[i]) * (a[i] - b[i])
		s += b[i] * b[i]
	}
	if s == 0 {
		if d == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return d / s
}
