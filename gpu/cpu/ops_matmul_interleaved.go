package cpu

import (
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// Products of interleaved Q4_0 weights (weights_interleaved.go). The
// input's tokens are quantized once into tiles of 8, 4 and 1 tokens
// (quant.TileSplit, quant.QuantizeTileAct), shared by every product
// reading the same input; workers then take runs of 16-row groups, and
// each run passes every tile over a few groups at a time, whose weights
// stay in cache meanwhile. One token (decode) is the same code with one
// tile of one, so prefill and decode compute the same numbers.

// tileCacheBytes bounds the weights a run keeps hot across the tiles.
const tileCacheBytes = 48 << 10

// tiling places the tiles of T tokens: tile i holds tokens
// [first[i], first[i]+size[i]); token j sits in slot j-first of tile of[j].
type tiling struct {
	size, first, of []int
}

func newTiling(T int) tiling {
	var tl tiling
	tl.of = make([]int, T)
	j := 0
	for i, m := range quant.TileSplit(T) {
		tl.size = append(tl.size, m)
		tl.first = append(tl.first, j)
		for e := j + m; j < e; j++ {
			tl.of[j] = i
		}
	}
	return tl
}

// tiledActivations returns the scratch holding in's tokens quantized into
// tiles (token j's tile starts at first·TileActBytes(K)), adding the
// quantize kernel unless the current version of in already has one.
func (c *compiler) tiledActivations(in *gpu.Tensor) *scratch {
	K, T := in.Shape[0], in.Rows()
	root := in.Root()
	key := quantKey{in: in, at: gguf.Q4_0, tiled: true}
	e := c.quants[key]
	if e == nil || e.version != c.version[root] {
		e = &quantEntry{s: c.newScratch(T * quant.TileActBytes(K)), version: c.version[root]}
		c.quants[key] = e
		c.addTileQuantize(in, e.s)
	}
	return e.s
}

// addTileQuantize adds the kernel quantizing every token of in into s's
// tiles, in runs of blocks (about four a worker).
func (c *compiler) addTileQuantize(in *gpu.Tensor, s *scratch) {
	K, T := in.Shape[0], in.Rows()
	nb, tb := K/32, quant.TileActBytes(K)
	tl := newTiling(T)
	perTok := min(nb, max(1, (4*c.nth+T-1)/T))
	seg := (nb + perTok - 1) / perTok
	perTok = (nb + seg - 1) / seg
	units := T * perTok
	k := &kernel{name: "quantize", reads: refs(in), writes: []ref{{s: s}}, serial: T*K < 4096}
	sp := c.newSplitter()
	k.build = func() func(ith, nth int) {
		r := c.rows(in)
		do := func(w, u int) {
			j, b0 := u/perTok, u%perTok*seg
			i := tl.of[j]
			m, first := tl.size[i], tl.first[i]
			tile := s.mem[first*tb : (first+m)*tb]
			quant.QuantizeTileAct(r.get(w, j), b0, min(nb, b0+seg), m, j-first, tile)
		}
		return eachUnit(k.serial, units, sp, do)
	}
	c.add(k)
}

// lowerMatMulInterleaved adds the product of the interleaved weight W
// {K, N} with In's T tokens into Out {N, T} (both checked by lowerMatMul).
func (c *compiler) lowerMatMulInterleaved(o *gpu.MatMul, K, N, T int) {
	s := c.tiledActivations(o.In)
	tl := newTiling(T)
	tb := quant.TileActBytes(K)
	ng := quant.InterleavedGroups(N)
	chunk := chunkFor(ng, c.nth, 1)
	units := (ng + chunk - 1) / chunk
	hot := max(1, tileCacheBytes/(K/32*quant.InterleavedRows*18))
	k := &kernel{name: "matmul", reads: []ref{{t: o.W}, {s: s}}, writes: refs(o.Out),
		serial: N*T*gguf.Q4_0.RowBytes(K) < 1<<15}
	sp := c.newSplitter()
	k.build = func() func(ith, nth int) {
		wm, out := c.mem(o.W), f32s(c.mem(o.Out), N*T)
		do := func(_, u int) {
			g0 := u * chunk
			g1 := min(ng, g0+chunk)
			for gs := g0; gs < g1; gs += hot {
				ge := min(g1, gs+hot)
				for i, m := range tl.size {
					f := tl.first[i]
					quant.InterleavedQ4_0Dot(wm, N, K, gs, ge, s.mem[f*tb:(f+m)*tb], m, out[f*N:], N)
				}
			}
		}
		return eachUnit(k.serial, units, sp, do)
	}
	c.add(k)
}
