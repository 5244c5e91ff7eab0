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
	"github.com/emberllm/ember/gpu/webgpu"
)

// A prefill's attention of four query heads on one key head (and four
// tokens, for heads of up to 128 values) in one workgroup
// (attention_heads) gives what a workgroup a head and token (attention)
// gives, bit for bit: grouped heads and GLM-4.7-Flash's latent shape,
// over more cache rows than a chunk of weights, F16 and F32 caches.
func TestAttentionHeadsSameBits(t *testing.T) {
	be := open(t)
	defer be.Close()
	for _, c := range []struct {
		name           string
		DK, DV, H, HKV int
		vFromK         bool
		T, pos         int
	}{
		// Heads of at most 128 values take four tokens a workgroup: a
		// full tile and a tile of two; a row group that ends inside a
		// tile's tokens (rows 15 to 22 of 8 tokens from 14); 37 tokens of
		// 128-value heads from position 5.
		{"gqa", 64, 64, 8, 2, false, 6, 70},
		{"tiles", 64, 64, 8, 2, false, 8, 14},
		{"gqa128", 128, 128, 16, 4, false, 37, 5},
		// One token a workgroup.
		{"latent", 576, 512, 20, 1, true, 9, 300},
	} {
		for _, ct := range []gguf.TensorType{gguf.F16, gguf.F32} {
			t.Run(fmt.Sprintf("%s/%s", c.name, ct), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(c.H), uint64(ct)))
				ctx := c.pos + c.T
				fill := func(typ gguf.TensorType, shape [4]int, scale float64) gpu.Buffer {
					n := shape[0] * shape[1] * shape[2] * shape[3]
					raw := make([]byte, gpu.Bytes(typ, shape))
					for i := range n {
						v := float32(scale * rng.NormFloat64())
						if typ == gguf.F16 {
							binary.LittleEndian.PutUint16(raw[2*i:], quant.F32ToF16(v))
						} else {
							binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
						}
					}
					b, err := be.Alloc("x", typ, shape)
					if err != nil {
						t.Fatal(err)
					}
					if err := b.Write(0, raw); err != nil {
						t.Fatal(err)
					}
					return b
				}
				q := fill(gguf.F32, gpu.Shape4(c.DK, c.H, c.T), 1)
				ck := fill(ct, gpu.Shape4(c.DK*c.HKV, ctx), 1)
				var cv gpu.Buffer
				if !c.vFromK {
					cv = fill(ct, gpu.Shape4(c.DV*c.HKV, ctx), 1)
				}
				run := func(heads bool) ([]byte, map[string]bool) {
					webgpu.AttentionHeads(be, heads)
					out, err := be.Alloc("out", gguf.F32, gpu.Shape4(c.DV, c.H, c.T))
					if err != nil {
						t.Fatal(err)
					}
					g := gpu.NewGraph("prefill-attention", c.T)
					op := &gpu.Attention{Q: g.Bind("q", q), CacheK: g.Bind("ck", ck), Out: g.Bind("out", out), HKV: c.HKV, DV: c.DV,
						VFromK: c.vFromK, Scale: float32(1 / math.Sqrt(float64(c.DK)))}
					if cv != nil {
						op.CacheV = g.Bind("cv", cv)
					}
					g.Do(op)
					p, err := be.Compile(g)
					if err != nil {
						t.Fatal(err)
					}
					if err := p.Run(gpu.Params{Pos: c.pos}); err != nil {
						t.Fatal(err)
					}
					raw := make([]byte, 4*c.DV*c.H*c.T)
					if err := out.Read(0, raw); err != nil {
						t.Fatal(err)
					}
					kernels := map[string]bool{}
					webgpu.KeepKernels(p, func(n string, _ int) bool { kernels[n] = true; return false })
					return raw, kernels
				}
				together, kt := run(true)
				apart, ka := run(false)
				webgpu.AttentionHeads(be, true)
				if !kt["attention_heads"] || !ka["attention"] || ka["attention_heads"] {
					t.Fatalf("kernels %v together, %v apart: want attention_heads, then attention", kt, ka)
				}
				sameBitsAs(t, [3][]byte{together}, [3][]byte{apart}, "attention")
			})
		}
	}
}
