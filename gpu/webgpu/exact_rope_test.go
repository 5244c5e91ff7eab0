//go:build cgo && !js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// Exact ropes equal the CPU backend's bit for bit: both pairings, partial
// rotary dims, frequency factors, YaRN as deepseek2 sets it, in place or
// not, for prefill steps and decode steps up to the last position of the
// context; a step past it is an error, not stale angles.
func TestExactRope(t *testing.T) {
	cb, wb := exactBackends(t)
	const ctx, H = 5008, 3
	yarn := gpu.Rope{Dims: 64, FreqBase: 10000, FreqScale: 1.0 / 40, ExtFactor: 1, AttnFactor: 0.7071, BetaFast: 32, BetaSlow: 1, OrigCtx: 4096}
	cases := []struct {
		name    string
		hd      int
		op      gpu.Rope
		factors bool
		inPlace bool
	}{
		{"full", 64, gpu.Rope{Dims: 64, FreqBase: 10000, FreqScale: 1, AttnFactor: 1}, false, false},
		{"partial", 80, gpu.Rope{Dims: 32, FreqBase: 500000, FreqScale: 0.5, AttnFactor: 1}, false, false},
		{"factors", 64, gpu.Rope{Dims: 64, FreqBase: 500000, FreqScale: 1, AttnFactor: 1}, true, true},
		{"yarn", 64, yarn, false, false},
		{"yarn-partial", 96, yarn, false, true},
	}
	for _, rc := range cases {
		for _, mode := range []gpu.RopeMode{gpu.RopeNormal, gpu.RopeNeoX} {
			for _, T := range []int{1, 5} {
				t.Run(fmt.Sprintf("%s/mode%d/T%d", rc.name, mode, T), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(rc.hd*10+int(mode)), uint64(T)))
					var ff []byte
					if rc.factors {
						ff = make([]byte, 4*rc.op.Dims/2)
						for i := 0; i < rc.op.Dims/2; i++ {
							binary.LittleEndian.PutUint32(ff[4*i:], math.Float32bits(1+7*rng.Float32()))
						}
					}
					op := rc.op
					op.Mode, op.Ctx = mode, ctx
					c, w := ropeStep(t, cb, op, rc.hd, H, T, ff, rc.inPlace), ropeStep(t, wb, op, rc.hd, H, T, ff, rc.inPlace)
					for _, pos := range []int{0, 1, 37, 4095, 5000, ctx - T} {
						x := randomF32(rng, rc.hd*H*T)
						sameOutputs(t, w.at(t, pos, x), c.at(t, pos, x))
					}
					err := w.p.Run(gpu.Params{Pos: ctx - T + 1})
					if err == nil || !strings.Contains(err.Error(), "past the exact rope's table") {
						t.Errorf("a step past the table's %d positions: %v, want an error", ctx, err)
					}
				})
			}
		}
	}
}

// TestExactRopeUnbounded: a rope that knows no last position (no Ctx, no
// KV cache in its graph) cannot be tabulated, and says so.
func TestExactRopeUnbounded(t *testing.T) {
	_, wb := exactBackends(t)
	g := gpu.NewGraph("rope", 1)
	x := g.Bind("x", upload(t, wb, "x", gguf.F32, gpu.Shape4(64, 2), nil))
	g.Do(&gpu.Rope{In: x, Out: x, Dims: 64, FreqBase: 10000, FreqScale: 1, AttnFactor: 1})
	if _, err := wb.Compile(g); err == nil || !strings.Contains(err.Error(), "bound on positions") {
		t.Errorf("compiling a rope without a bound: %v, want an error", err)
	}
}

// ropeProg is a compiled graph of one rope op.
type ropeProg struct {
	p       gpu.Program
	in, out *gpu.Tensor
}

// ropeStep compiles a graph of the one rope op on be, for T tokens of H
// heads of hd values.
func ropeStep(t *testing.T, be gpu.Backend, op gpu.Rope, hd, H, T int, factors []byte, inPlace bool) ropeProg {
	t.Helper()
	g := gpu.NewGraph("rope", T)
	shape := gpu.Shape4(hd, H, T)
	r := ropeProg{in: g.Bind("x", upload(t, be, "x", gguf.F32, shape, nil))}
	r.out = r.in
	if !inPlace {
		r.out = g.Bind("y", upload(t, be, "y", gguf.F32, shape, nil))
	}
	op.In, op.Out = r.in, r.out
	if factors != nil {
		op.FreqFactors = g.Bind("ff", upload(t, be, "ff", gguf.F32, gpu.Shape4(op.Dims/2), factors))
	}
	g.Do(&op)
	var err error
	if r.p, err = be.Compile(g); err != nil {
		t.Fatal(err)
	}
	return r
}

// at runs the step on input x at a position and reads the output back.
func (r ropeProg) at(t *testing.T, pos int, x []byte) []byte {
	t.Helper()
	if err := r.in.Buf.Write(0, x); err != nil {
		t.Fatal(err)
	}
	if err := r.p.Run(gpu.Params{Pos: pos}); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(x))
	if err := r.out.Buf.Read(0, got); err != nil {
		t.Fatal(err)
	}
	return got
}
