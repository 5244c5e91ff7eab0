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
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// Exact attention (Options.Exact) equals the CPU backend's bit for bit:
// one token (ggml's 64-lane dots with float64 tails) and batches
// (tinyBLAS's 16 lanes, or the 64-lane dots where DK is not a multiple of
// 16), grouped and MLA heads, both cache types. The wide cases spread
// the values down over many binades, so the float64 sums round while the
// scores stay near one. The long cases span many threads' work in each
// row.
func TestExactAttention(t *testing.T) {
	cb, wb := exactBackends(t)
	type acase struct {
		name           string
		DK, DV, H, HKV int
		vFromK         bool
		T, pos         int
		wide           bool
	}
	cases := []acase{
		{"decode-first", 40, 40, 4, 4, false, 1, 0, false},
		{"decode-gqa", 40, 24, 6, 2, false, 1, 7, false},
		{"decode-tail", 80, 80, 2, 1, false, 1, 33, false},
		{"decode-64", 128, 64, 4, 2, false, 1, 21, false},
		{"decode-wide", 40, 40, 4, 2, false, 1, 30, true},
		{"prefill-gemm", 48, 48, 6, 3, false, 5, 3, false},
		{"prefill-vec", 40, 24, 4, 2, false, 17, 0, false},
		{"prefill-wide", 72, 32, 2, 1, false, 6, 20, true},
		{"mla-decode", 72, 56, 5, 1, true, 1, 12, false},
		{"mla-prefill", 80, 64, 3, 1, true, 4, 9, false},
		// Rows longer than 64 chunks of 16 and 64 lanes: the softmax's
		// threads take several chunks, the values' lanes several positions.
		{"decode-long", 64, 48, 2, 1, false, 1, 1500, false},
		{"prefill-long", 48, 40, 2, 1, false, 3, 1100, true},
	}
	for ci, c := range cases {
		for _, typ := range []gguf.TensorType{gguf.F32, gguf.F16} {
			t.Run(fmt.Sprintf("%s/%s", c.name, typ), func(t *testing.T) {
				ctx := max(40, c.pos+c.T)
				rng := rand.New(rand.NewPCG(uint64(ci), uint64(typ)))
				q := attentionValues(rng, c.DK*c.H*c.T, c.wide, gguf.F32)
				ck := attentionValues(rng, c.DK*c.HKV*ctx, c.wide, typ)
				cv := attentionValues(rng, c.DV*c.HKV*ctx, c.wide, typ)
				scale := float32(1 / math.Sqrt(float64(c.DK)))
				run := func(be gpu.Backend) []byte {
					g := gpu.NewGraph("exact-attention", c.T)
					Q := g.Bind("q", upload(t, be, "q", gguf.F32, gpu.Shape4(c.DK, c.H, c.T), q))
					CK := g.Bind("ck", cacheOn(t, be, "ck", typ, c.DK*c.HKV, ctx, ck))
					var CV *gpu.Tensor
					if !c.vFromK {
						CV = g.Bind("cv", cacheOn(t, be, "cv", typ, c.DV*c.HKV, ctx, cv))
					}
					out := g.Bind("out", upload(t, be, "out", gguf.F32, gpu.Shape4(c.DV, c.H, c.T), nil))
					g.Do(&gpu.Attention{Q: Q, CacheK: CK, CacheV: CV, Out: out, HKV: c.HKV, DV: c.DV, VFromK: c.vFromK, Scale: scale})
					return readAt(t, be, g, out, c.pos)
				}
				sameOutputs(t, run(wb), run(cb))
			})
		}
	}
}

// attentionValues is n random normal values in typ's bytes, each scaled
// by a random power of two down to 2^-40 (2^-12 in F16) when wide.
func attentionValues(rng *rand.Rand, n int, wide bool, typ gguf.TensorType) []byte {
	f := randomFloats(rng, n)
	low := 12
	if typ == gguf.F32 {
		low = 40
	}
	for i := range f {
		if wide {
			f[i] = float32(math.Ldexp(float64(f[i]), -rng.IntN(low+1)))
		}
	}
	if typ == gguf.F32 {
		raw := make([]byte, 4*n)
		for i, v := range f {
			binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
		}
		return raw
	}
	raw := make([]byte, 2*n)
	for i, v := range f {
		binary.LittleEndian.PutUint16(raw[2*i:], quant.F32ToF16(v))
	}
	return raw
}

// cacheOn is a KV cache of width values a position on be, holding data.
func cacheOn(t *testing.T, be gpu.Backend, name string, typ gguf.TensorType, width, ctx int, data []byte) gpu.Buffer {
	t.Helper()
	b, err := be.Alloc(name, typ, gpu.Shape4(width, ctx))
	if err == nil {
		err = b.Write(0, data)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exactBackends opens the CPU backend and WebGPU in exact mode, closed
// when t ends.
func exactBackends(t *testing.T) (cb, wb gpu.Backend) {
	t.Helper()
	cb = cpu.New(1)
	t.Cleanup(func() { cb.Close() })
	wb, err := webgpu.Open(webgpu.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wb.Close() })
	return cb, wb
}

// readAt compiles and runs g on be for a step at position pos and reads
// out back.
func readAt(t *testing.T, be gpu.Backend, g *gpu.Graph, out *gpu.Tensor, pos int) []byte {
	t.Helper()
	p, err := be.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(gpu.Params{Pos: pos}); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, gpu.Bytes(out.Type, out.Shape))
	if err := out.Buf.Read(0, got); err != nil {
		t.Fatal(err)
	}
	return got
}

// The KV store rounds to an F16 cache as the CPU does (ties to even), as
// pack2x16float need not: half the values sit halfway between two f16s.
func TestExactKVStore(t *testing.T) {
	cb, wb := exactBackends(t)
	const D, T, ctx, pos = 48, 3, 8, 2
	rng := rand.New(rand.NewPCG(3, 4))
	x := randomFloats(rng, D*T)
	for i := range x {
		if i%2 == 0 { // the f16 value plus half its step
			h := quant.F32ToF16(x[i])
			x[i] = math.Float32frombits(math.Float32bits(quant.F16ToF32(h)) + 1<<12)
		}
	}
	raw := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	run := func(be gpu.Backend) []byte {
		g := gpu.NewGraph("exact-kv", T)
		k := g.Bind("k", upload(t, be, "k", gguf.F32, gpu.Shape4(D, T), raw))
		ck := g.Bind("ck", cacheOn(t, be, "ck", gguf.F16, D, ctx, make([]byte, 2*D*ctx)))
		g.Do(&gpu.KVStore{K: k, CacheK: ck})
		return readAt(t, be, g, ck, pos)
	}
	sameOutputs(t, run(wb), run(cb))
}
