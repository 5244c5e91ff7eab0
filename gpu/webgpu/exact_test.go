//go:build cgo && !js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// Exact products (Options.Exact) equal the CPU backend's bit for bit, for
// every weight type in each order the CPU sums it in: rows in eights
// (repacked, interleaved Q4_0) or not, one token or a batch (Q4_K's gemm
// for groups of four, the rest gemv; tinyBLAS for float weights), batched
// per-head matrices, and products by expert id. Inputs are random normal
// numbers; rows end inside a float step (F32).
func TestExactProducts(t *testing.T) {
	cb, wb := exactBackends(t)
	for _, wt := range weightTypes {
		K := map[int]int{1: 291, 32: 288, 256: 768}[wt.BlockSize()]
		if wt == gguf.F16 {
			K = 320 // ggml's F16 tail is float64: not followed (checkExact)
		}
		// Long rows (K 19 or 9 blocks, the last chunk of blocks partial) take
		// several of the blocks kernels' chunks.
		long := map[int]int{1: 611, 32: 608, 256: 2304}[wt.BlockSize()]
		if wt == gguf.F16 {
			long = 640
		}
		for _, c := range []struct{ K, N, B, T int }{{K, 64, 1, 1}, {K, 37, 1, 1}, {long, 40, 1, 1}, {long, 35, 1, 3}, {K, 64, 1, 5}, {K, 36, 1, 6}, {K, 16, 3, 2}, {K, 20, 1, 9}} {
			K := c.K
			t.Run(fmt.Sprintf("%s/K%d/N%d/B%d/T%d", wt, K, c.N, c.B, c.T), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(wt), uint64(K*c.N*c.B*c.T)))
				w := randomBytes(t, rng, wt, gpu.Shape4(K, c.N, c.B))
				x := randomF32(rng, K*c.B*c.T)
				run := func(be gpu.Backend) []byte {
					g := gpu.NewGraph("exact", c.T)
					W := g.Bind("w", upload(t, be, "w", wt, gpu.Shape4(K, c.N, c.B), w))
					in := g.Bind("x", upload(t, be, "x", gguf.F32, gpu.Shape4(K, c.B, c.T), x))
					out := g.Bind("y", upload(t, be, "y", gguf.F32, gpu.Shape4(c.N, c.B, c.T), nil))
					g.Do(&gpu.MatMul{W: W, In: in, Out: out})
					return compileRead(t, be, g, out)
				}
				sameOutputs(t, run(wb), run(cb))
			})
		}
		// T 9: past splitExactBlocks for blocks of 32, one thread an output;
		// the K-quants take the blocks kernels at every T.
		for _, c := range []struct{ K, Sin, T int }{{K, 1, 2}, {K, 3, 2}, {K, 1, 9}, {long, 1, 1}} {
			K, Sin, T := c.K, c.Sin, c.T
			t.Run(fmt.Sprintf("%s/experts/K%d/Sin%d/T%d", wt, K, Sin, T), func(t *testing.T) {
				const N, E, S = 40, 5, 3
				rng := rand.New(rand.NewPCG(uint64(wt), uint64(K*Sin*T)))
				w := randomBytes(t, rng, wt, gpu.Shape4(K, N, E))
				x := randomF32(rng, K*Sin*T)
				ids := make([]byte, 4*S*T)
				for i := 0; i < S*T; i++ {
					binary.LittleEndian.PutUint32(ids[4*i:], uint32(rng.IntN(E)))
				}
				run := func(be gpu.Backend) []byte {
					g := gpu.NewGraph("exact", T)
					W := g.Bind("w", upload(t, be, "w", wt, gpu.Shape4(K, N, E), w))
					in := g.Bind("x", upload(t, be, "x", gguf.F32, gpu.Shape4(K, Sin, T), x))
					id := g.Bind("ids", upload(t, be, "ids", gguf.I32, gpu.Shape4(S, T), ids))
					out := g.Bind("y", upload(t, be, "y", gguf.F32, gpu.Shape4(N, S, T), nil))
					g.Do(&gpu.MatMulID{W: W, In: in, IDs: id, Out: out})
					return compileRead(t, be, g, out)
				}
				sameOutputs(t, run(wb), run(cb))
			})
		}
	}
}

// randomBytes is normal random weights of type wt and shape, quantized.
func randomBytes(t *testing.T, rng *rand.Rand, wt gguf.TensorType, shape [4]int) []byte {
	t.Helper()
	data := make([]byte, gpu.Bytes(wt, shape))
	if err := quant.Quantize(wt, randomFloats(rng, shape[0]*shape[1]*shape[2]*shape[3]), data); err != nil {
		t.Fatal(err)
	}
	return data
}

func randomFloats(rng *rand.Rand, n int) []float32 {
	f := make([]float32, n)
	for i := range f {
		f[i] = float32(rng.NormFloat64())
	}
	return f
}

func randomF32(rng *rand.Rand, n int) []byte {
	raw := make([]byte, 4*n)
	for i, v := range randomFloats(rng, n) {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	return raw
}

// upload makes a buffer on be holding data (zeros when nil).
func upload(t *testing.T, be gpu.Backend, name string, typ gguf.TensorType, shape [4]int, data []byte) gpu.Buffer {
	t.Helper()
	var b gpu.Buffer
	var err error
	if typ == gguf.F32 || typ == gguf.I32 {
		if b, err = be.Alloc(name, typ, shape); err == nil && data != nil {
			err = b.Write(0, data)
		}
	} else {
		b, err = be.Weight(name, typ, shape, data)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// compileRead compiles and runs g on be and reads out back.
func compileRead(t *testing.T, be gpu.Backend, g *gpu.Graph, out *gpu.Tensor) []byte {
	t.Helper()
	return readAt(t, be, g, out, 0)
}

// sameOutputs fails on the first float that differs in its bits.
func sameOutputs(t *testing.T, got, want []byte) {
	t.Helper()
	differ := 0
	for i := 0; i+4 <= len(want); i += 4 {
		a, b := binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:])
		if a != b {
			if differ < 3 {
				t.Errorf("output %d: %g (%08x), the CPU's %g (%08x)", i/4, math.Float32frombits(a), a, math.Float32frombits(b), b)
			}
			differ++
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d outputs differ from the CPU's", differ, len(want)/4)
	}
}
