//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// A decode step's latent attention in one dispatch and the value pass
// (mla_step) gives what the separate rope, rmsnorm, rope, kv_store and
// attention dispatches give, bit for bit: the attention's output and the
// cache row it stores, for F32 and F16 caches, both rope modes, with and
// without YaRN, with and without subgroups, at a position whose scores
// end inside a chunk, with an odd latent width where the cache allows it.
func TestMLAStepFused(t *testing.T) {
	bothSubgroupModes(t, func(be gpu.Backend, mode string) {
		for _, cache := range []gguf.TensorType{gguf.F32, gguf.F16} {
			for _, rope := range []gpu.RopeMode{gpu.RopeNormal, gpu.RopeNeoX} {
				for _, yarn := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%s/rope%d/yarn=%v", mode, cache, rope, yarn), func(t *testing.T) {
						mlaStep(t, be, cache, rope, yarn)
					})
				}
			}
		}
	})
}

func mlaStep(t *testing.T, be gpu.Backend, ct gguf.TensorType, mode gpu.RopeMode, yarn bool) {
	const H, nope, rope, ctx, pos = 3, 24, 10, 48, 37
	R := 69 // the latent: odd where the cache takes it
	if ct == gguf.F16 {
		R = 70
	}
	DK, qk := R+rope, nope+rope
	rng := rand.New(rand.NewPCG(uint64(ct), uint64(mode)*2+uint64(len(fmt.Sprint(yarn)))))
	alloc := func(name string, typ gguf.TensorType, dims ...int) gpu.Buffer {
		b, err := be.Alloc(name, typ, gpu.Shape4(dims...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	q, absorbed, kv, nw := alloc("q", gguf.F32, qk, H), alloc("absorbed", gguf.F32, DK, H), alloc("kv", gguf.F32, DK), alloc("nw", gguf.F32, R)
	for _, x := range []struct {
		b gpu.Buffer
		n int
	}{{q, qk * H}, {absorbed, DK * H}, {kv, DK}, {nw, R}} {
		writeRandom(t, x.b, rng, x.n)
	}
	rows := make([]float32, DK*ctx)
	for i := range rows {
		rows[i] = float32(rng.NormFloat64())
	}
	past := make([]byte, gpu.Bytes(ct, gpu.Shape4(DK, ctx)))
	if err := quant.Quantize(ct, rows, past); err != nil {
		t.Fatal(err)
	}
	// split puts an op between the ropes and the norm, which keeps the
	// block apart.
	run := func(split bool) ([][]byte, int) {
		g := gpu.NewGraph("mla", 1)
		cache, out := alloc("cache", ct, DK, ctx), alloc("out", gguf.F32, R, H)
		if err := cache.Write(0, past); err != nil {
			t.Fatal(err)
		}
		// the query and the row are activations, as in a model's graph
		Q, K := g.New("q_mla", gguf.F32, DK, H, 1), g.New("kv_a", gguf.F32, DK, 1)
		g.Do(&gpu.Copy{In: g.Bind("absorbed", absorbed), Out: Q})
		g.Do(&gpu.Copy{In: g.Bind("kv", kv), Out: K})
		view := func(name string, t *gpu.Tensor, off, n, row, heads int) *gpu.Tensor {
			st := [4]int{4, row * 4, row * heads * 4, row * heads * 4}
			return g.View(name, t, off*4, gpu.Shape4(n, heads, 1), &st)
		}
		ropeOp := func(in, out *gpu.Tensor) *gpu.Rope {
			op := &gpu.Rope{In: in, Out: out, Dims: rope, Mode: mode, FreqBase: 10000, FreqScale: 1, AttnFactor: 1}
			if yarn {
				op.FreqScale, op.ExtFactor, op.AttnFactor, op.BetaFast, op.BetaSlow, op.OrigCtx = 0.25, 1, 0.9, 32, 1, 16
			}
			return op
		}
		g.Do(ropeOp(view("q_pe", g.Bind("q", q), nope, rope, qk, H), view("q_pe_roped", Q, R, rope, DK, H)))
		if split {
			a := g.Bind("a", alloc("a", gguf.F32, 4))
			g.Do(&gpu.Scale{In: a, Out: a, S: 2})
		}
		lat, kpe := view("latent", K, 0, R, DK, 1), view("k_pe", K, R, rope, DK, 1)
		g.Do(&gpu.RMSNorm{In: lat, Weight: g.Bind("nw", nw), Out: lat, Eps: 1e-6})
		g.Do(ropeOp(kpe, kpe))
		ck := g.Bind("cache", cache)
		g.Do(&gpu.KVStore{K: K, CacheK: ck})
		g.Do(&gpu.Attention{Q: Q, CacheK: ck, Out: g.Bind("out", out), HKV: 1, DV: R, VFromK: true, Scale: 0.125})
		p, err := be.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Run(gpu.Params{Pos: pos}); err != nil {
			t.Fatal(err)
		}
		var got [][]byte
		for _, b := range []gpu.Buffer{out, cache} {
			raw := make([]byte, gpu.Bytes(b.Type(), b.Shape()))
			if err := b.Read(0, raw); err != nil {
				t.Fatal(err)
			}
			got = append(got, raw)
		}
		return got, p.Kernels()
	}
	fused, kf := run(false)
	apart, ka := run(true)
	// Apart: the two copies, a Scale, two ropes, the norm, the store and
	// the attention's two passes; together, the copies, the Scale's place
	// taken by nothing, and mla_step with the value pass.
	if kf != ka-5 {
		t.Errorf("%d kernels with the block together, %d apart (one of them a Scale): want one dispatch for the ropes, norm, store and scores", kf, ka)
	}
	if string(fused[1]) != string(apart[1]) {
		t.Errorf("the caches differ")
	}
	sameBitsAs(t, [3][]byte{fused[0]}, [3][]byte{apart[0]}, "attention")
}
