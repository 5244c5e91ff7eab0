//go:build cgo && !js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// spreadF32 is n random normal values each scaled by 2^k, k uniform in
// [-span, span]: magnitudes far apart make float64 sums of their squares
// round, and large ones push exp past float32's range.
func spreadF32(rng *rand.Rand, n, span int) []byte {
	raw := make([]byte, 4*n)
	for i, v := range randomFloats(rng, n) {
		v = float32(math.Ldexp(float64(v), rng.IntN(2*span+1)-span))
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	return raw
}

// The exact mode's elementwise ops equal the CPU backend's bit for bit:
// RMSNorm with and without a weight, over rows split across dims, and
// fused with the rounding a product reads (the product's output then
// matches only if the rounded copy and its scales do); SwiGLU, including
// gates whose exp overflows.
func TestExactElementwise(t *testing.T) {
	cb, wb := exactBackends(t)
	for _, c := range []struct {
		shape  [4]int
		weight bool
		span   int
	}{
		{gpu.Shape4(291, 3), false, 0},
		{gpu.Shape4(291, 3), true, 8},
		{gpu.Shape4(1001, 2, 3), true, 12},
		{gpu.Shape4(7, 5), false, 20},
		{gpu.Shape4(4096, 2), true, 6},
	} {
		t.Run(fmt.Sprintf("rmsnorm/%v/weight%v/span%d", c.shape, c.weight, c.span), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.shape[0]), uint64(c.span)))
			n := c.shape[0] * c.shape[1] * c.shape[2]
			x := spreadF32(rng, n, c.span)
			w := randomF32(rng, c.shape[0])
			run := func(be gpu.Backend) []byte {
				g := gpu.NewGraph("rmsnorm", 1)
				in := g.Bind("x", upload(t, be, "x", gguf.F32, c.shape, x))
				out := g.Bind("y", upload(t, be, "y", gguf.F32, c.shape, nil))
				op := &gpu.RMSNorm{In: in, Out: out, Eps: 1e-6}
				if c.weight {
					op.Weight = g.Bind("w", upload(t, be, "w", gguf.F32, gpu.Shape4(c.shape[0]), w))
				}
				g.Do(op)
				return compileRead(t, be, g, out)
			}
			sameOutputs(t, run(wb), run(cb))
		})
	}
	for _, c := range []struct {
		wt   gguf.TensorType
		K, T int
	}{{gguf.Q8_0, 288, 3}, {gguf.Q4_K, 768, 2}, {gguf.F16, 320, 2}} {
		t.Run(fmt.Sprintf("rmsnorm-rounded/%s/K%d/T%d", c.wt, c.K, c.T), func(t *testing.T) {
			const N = 37
			rng := rand.New(rand.NewPCG(uint64(c.wt), uint64(c.K)))
			x := spreadF32(rng, c.K*c.T, 8)
			nw := randomF32(rng, c.K)
			w := randomBytes(t, rng, c.wt, gpu.Shape4(c.K, N))
			run := func(be gpu.Backend) []byte {
				g := gpu.NewGraph("rmsnorm-rounded", c.T)
				in := g.Bind("x", upload(t, be, "x", gguf.F32, gpu.Shape4(c.K, c.T), x))
				norm := g.New("norm", gguf.F32, c.K, c.T)
				W := g.Bind("w", upload(t, be, "w", c.wt, gpu.Shape4(c.K, N), w))
				out := g.Bind("y", upload(t, be, "y", gguf.F32, gpu.Shape4(N, c.T), nil))
				nwt := g.Bind("nw", upload(t, be, "nw", gguf.F32, gpu.Shape4(c.K), nw))
				g.Do(&gpu.RMSNorm{In: in, Weight: nwt, Out: norm, Eps: 1e-5})
				g.Do(&gpu.MatMul{W: W, In: norm, Out: out})
				return compileRead(t, be, g, out)
			}
			sameOutputs(t, run(wb), run(cb))
		})
	}
	for _, shape := range [][4]int{gpu.Shape4(1001, 3), gpu.Shape4(37, 2, 5)} {
		t.Run(fmt.Sprintf("swiglu/%v", shape), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(shape[0]), 7))
			n := shape[0] * shape[1] * shape[2]
			gate, up := spreadF32(rng, n, 7), randomF32(rng, n)
			run := func(be gpu.Backend) []byte {
				g := gpu.NewGraph("swiglu", 1)
				a := g.Bind("gate", upload(t, be, "gate", gguf.F32, shape, gate))
				b := g.Bind("up", upload(t, be, "up", gguf.F32, shape, up))
				out := g.Bind("y", upload(t, be, "y", gguf.F32, shape, nil))
				g.Do(&gpu.SwiGLU{Gate: a, Up: b, Out: out})
				return compileRead(t, be, g, out)
			}
			sameOutputs(t, run(wb), run(cb))
		})
	}
}

// The exact mode's router equals the CPU's, IDs and weights, for each
// gating (softmax over whole 16-value chunks and a tail, sigmoid, softmax
// over the chosen), with and without a bias, normalisation and scale.
// K = E (sigmoid) has every expert's weight checked.
func TestExactRoute(t *testing.T) {
	cb, wb := exactBackends(t)
	for _, c := range []struct {
		E, K   int
		gating gpu.Gating
		bias   bool
		norm   bool
		scale  float32
	}{
		{37, 8, gpu.GateSoftmax, false, true, 1},
		{64, 6, gpu.GateSoftmax, false, false, 2.5},
		{32, 32, gpu.GateSigmoid, false, false, 0},
		{40, 8, gpu.GateSigmoid, true, true, 2.5},
		{45, 7, gpu.GateSoftmaxTopK, false, false, 1},
		// More experts than the router's 64 threads: each ranks several.
		{128, 8, gpu.GateSoftmax, false, true, 1},
		{300, 8, gpu.GateSigmoid, true, true, 2.5},
		{160, 6, gpu.GateSoftmaxTopK, false, false, 1},
	} {
		t.Run(fmt.Sprintf("E%d/K%d/gating%d/bias%v/norm%v", c.E, c.K, c.gating, c.bias, c.norm), func(t *testing.T) {
			const T = 50
			rng := rand.New(rand.NewPCG(uint64(c.E), uint64(c.gating)))
			logits, bias := spreadF32(rng, c.E*T, 3), randomF32(rng, c.E)
			run := func(be gpu.Backend) ([]byte, []byte) {
				g := gpu.NewGraph("route", T)
				lg := g.Bind("logits", upload(t, be, "logits", gguf.F32, gpu.Shape4(c.E, T), logits))
				ids := g.Bind("ids", upload(t, be, "ids", gguf.I32, gpu.Shape4(c.K, T), nil))
				wts := g.Bind("wts", upload(t, be, "wts", gguf.F32, gpu.Shape4(c.K, T), nil))
				op := &gpu.Route{Logits: lg, IDs: ids, Weights: wts, K: c.K, Gating: c.gating, Norm: c.norm, Scale: c.scale}
				if c.bias {
					op.Bias = g.Bind("bias", upload(t, be, "bias", gguf.F32, gpu.Shape4(c.E), bias))
				}
				g.Do(op)
				w := compileRead(t, be, g, wts)
				id := make([]byte, 4*c.K*T)
				if err := ids.Buf.Read(0, id); err != nil {
					t.Fatal(err)
				}
				return id, w
			}
			gi, gw := run(wb)
			ci, cw := run(cb)
			sameOutputs(t, gi, ci)
			sameOutputs(t, gw, cw)
		})
	}
}
