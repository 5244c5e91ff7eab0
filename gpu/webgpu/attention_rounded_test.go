//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// A decode attention whose next reader is a product writes its output
// also rounded for that product (attention_values, a quantize_act
// dispatch fewer), and the product gives what it gives after a separate
// quantize_act, bit for bit: per-head products (MLA's v_b) and one over
// all heads (wo), Q8_0 and Q4_0 blocks and f16 rounding, with and without
// subgroups. Value widths that are not whole blocks, and Q4_K's blocks of
// 256, which a slice of 32 cannot round, keep the dispatch.
func TestAttentionValuesRounded(t *testing.T) {
	for _, noSub := range []bool{false, true} {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: noSub})
		if err != nil {
			t.Fatal(err)
		}
		for _, wt := range []gguf.TensorType{gguf.Q8_0, gguf.Q4_0, gguf.F16, gguf.Q4_K} {
			for _, perHead := range []bool{true, false} {
				for _, DV := range []int{64, 40} {
					t.Run(fmt.Sprintf("subgroups=%v/%s/perHead=%v/DV%d", !noSub, wt, perHead, DV), func(t *testing.T) {
						attentionRounded(t, be, wt, perHead, DV)
					})
				}
			}
		}
		be.Close()
	}
}

func attentionRounded(t *testing.T, be gpu.Backend, wt gguf.TensorType, perHead bool, DV int) {
	const H, DK, N, ctx, pos = 4, 48, 37, 40, 29
	if wt == gguf.Q4_K && (perHead || DV*H%256 != 0) || perHead && DV%32 != 0 && wt != gguf.F16 {
		t.Skip("the product's rows are not whole blocks")
	}
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(DV)))
	alloc := func(name string, typ gguf.TensorType, dims ...int) gpu.Buffer {
		b, err := be.Alloc(name, typ, gpu.Shape4(dims...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cache := func(name string, n int) gpu.Buffer {
		rows := make([]float32, n*ctx)
		for i := range rows {
			rows[i] = float32(rng.NormFloat64())
		}
		raw := make([]byte, gpu.Bytes(gguf.F16, gpu.Shape4(n, ctx)))
		if err := quant.Quantize(gguf.F16, rows, raw); err != nil {
			t.Fatal(err)
		}
		b := alloc(name, gguf.F16, n, ctx)
		if err := b.Write(0, raw); err != nil {
			t.Fatal(err)
		}
		return b
	}
	q := alloc("q", gguf.F32, DK, H)
	writeRandom(t, q, rng, DK*H)
	ck, cv := cache("k", 2*DK), cache("v", 2*DV) // two KV heads
	var w gpu.Buffer
	if perHead {
		w = randomWeight(t, be, rng, "w", wt, gpu.Shape4(DV, N, H))
	} else {
		w = randomWeight(t, be, rng, "w", wt, gpu.Shape4(DV*H, N))
	}
	// split reads the attention's output before the product, which keeps
	// the rounding a dispatch of its own.
	run := func(split bool) ([3][]byte, int) {
		g := gpu.NewGraph("attn", 1)
		heads := 1
		if perHead {
			heads = H
		}
		y := alloc("y", gguf.F32, N, heads)
		Q, O := g.New("q_act", gguf.F32, DK, H, 1), g.New("attn_out", gguf.F32, DV, H, 1)
		g.Do(&gpu.Copy{In: g.Bind("q", q), Out: Q})
		g.Do(&gpu.Attention{Q: Q, CacheK: g.Bind("k", ck), CacheV: g.Bind("v", cv), Out: O, HKV: 2, DV: DV, Scale: 0.125})
		if split {
			g.Do(&gpu.Scale{In: O, Out: g.New("o2", gguf.F32, DV, H, 1), S: 2})
		}
		if perHead {
			g.Do(&gpu.MatMul{W: g.Bind("w", w), In: O, Out: g.Bind("y", y)})
		} else {
			st := [4]int{4, 4 * DV * H, 4 * DV * H, 4 * DV * H}
			flat := g.View("attn_flat", O, 0, gpu.Shape4(DV*H, 1), &st)
			g.Do(&gpu.MatMul{W: g.Bind("w", w), In: flat, Out: g.Bind("y", y)})
		}
		p, err := be.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Run(gpu.Params{Pos: pos}); err != nil {
			t.Fatal(err)
		}
		raw := make([]byte, 4*N*heads)
		if err := y.Read(0, raw); err != nil {
			t.Fatal(err)
		}
		return [3][]byte{raw}, p.Kernels()
	}
	fused, kf := run(false)
	apart, ka := run(true)
	want := ka - 2 // the Scale, and the quantize_act the attention takes over
	if DV%32 != 0 || wt == gguf.Q4_K {
		want = ka - 1
	}
	if kf != want {
		t.Errorf("%d kernels with the rounding in the attention, %d apart (one a Scale): want %d", kf, ka, want)
	}
	sameBitsAs(t, fused, apart, "product")
}
