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
// tile of one, so prefill and decode compute the same numbers. Where the
// columns of the input meet different matrices (a stack of them, or
// experts chosen per token) every column is a tile of its own.

// tileCacheBytes bounds the weights a run keeps hot across the tiles.
const tileCacheBytes = 48 << 10

// tiling places the tiles of T tokens: tile i holds tokens
// [first[i], first[i]+size[i]); token j sits in slot j-first of tile of[j].
type tiling struct {
	size, first, of []int
}

// newTiling tiles T tokens as quant.TileSplit does, or with ones in tiles
// of one token each.
func newTiling(T int, ones bool) tiling {
	split := quant.TileSplit(T)
	if ones {
		split = make([]int, T)
		for i := range split {
			split[i] = 1
		}
	}
	var tl tiling
	tl.of = make([]int, T)
	j := 0
	for i, m := range split {
		tl.size = append(tl.size, m)
		tl.first = append(tl.first, j)
		for e := j + m; j < e; j++ {
			tl.of[j] = i
		}
	}
	return tl
}

// tiledActivations returns the scratch holding in's columns (its rows)
// quantized into tiles (newTiling(in.Rows(), ones); the tile of column j
// starts at first·TileActBytes(K)), adding the quantize kernel unless the
// current version of in already has one.
func (c *compiler) tiledActivations(in *gpu.Tensor, ones bool) *scratch {
	K, T := in.Shape[0], in.Rows()
	root := in.Root()
	key := quantKey{in: in, at: gguf.Q4_0, tiled: true, ones: ones}
	e := c.quants[key]
	if e == nil || e.version != c.version[root] {
		e = &quantEntry{s: c.newScratch(T * quant.TileActBytes(K)), version: c.version[root]}
		c.quants[key] = e
		c.addTileQuantize(in, e.s, newTiling(T, ones))
	}
	return e.s
}

// addTileQuantize adds the kernel quantizing every token of in into s's
// tiles, in runs of blocks (about four a worker).
func (c *compiler) addTileQuantize(in *gpu.Tensor, s *scratch, tl tiling) {
	K, T := in.Shape[0], in.Rows()
	nb, tb := K/32, quant.TileActBytes(K)
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

// lowerMatMulInterleaved adds the product of the interleaved matrix W
// {K, N} with In's T tokens into Out {N, T} (both checked by lowerMatMul).
func (c *compiler) lowerMatMulInterleaved(o *gpu.MatMul, K, N, T int) {
	if o.W.Type == gguf.Q4_K {
		c.lowerMatMulInterleavedQ4K(o, K, N, T)
		return
	}
	s := c.tiledActivations(o.In, false)
	tl := newTiling(T, false)
	tb := quant.TileActBytes(K)
	c.addGroupProduct(o, []ref{{t: o.W}, {s: s}}, N, T, quant.InterleavedQ4_0Bytes(quant.InterleavedRows, K),
		func(wm []byte, gs, ge int, out func(t int) []float32, stride int) {
			for i, m := range tl.size {
				f := tl.first[i]
				quant.InterleavedQ4_0Dot(wm, N, K, gs, ge, s.mem[f*tb:(f+m)*tb], m, out(f), stride)
			}
		})
}

// addGroupProduct adds the kernel of a product of the interleaved matrix
// W {K, N} into Out's T rows: workers take runs of 16-row groups, and
// each run passes a few groups at a time (groupBytes each; the weights
// that stay in cache meanwhile) to run, which computes groups [gs, ge)
// for every token, token t's row starting at out(t), the tokens' rows
// stride floats apart.
func (c *compiler) addGroupProduct(o *gpu.MatMul, reads []ref, N, T, groupBytes int, run func(wm []byte, gs, ge int, out func(t int) []float32, stride int)) {
	ng := quant.InterleavedGroups(N)
	chunk := chunkFor(ng, c.nth, 1)
	units := (ng + chunk - 1) / chunk
	hot := max(1, tileCacheBytes/groupBytes)
	k := &kernel{name: "matmul", reads: reads, writes: refs(o.Out),
		serial: N*T*o.W.Type.RowBytes(o.W.Shape[0]) < 1<<15}
	sp := c.newSplitter()
	k.build = func() func(ith, nth int) {
		wm, rows := c.mem(o.W), c.rows(o.Out)
		// Out's rows may lie further apart than N floats (a view), but
		// always evenly: a run writes its tokens' rows one stride apart.
		stride := 0
		if T > 1 {
			stride = (rows.off(1) - rows.off(0)) / 4
		}
		all := f32s(rows.mem, rows.off(T-1)/4+N)
		out := func(t int) []float32 { return all[rows.off(t)/4:] }
		do := func(_, u int) {
			g0 := u * chunk
			g1 := min(ng, g0+chunk)
			for gs := g0; gs < g1; gs += hot {
				run(wm, gs, min(g1, gs+hot), out, stride)
			}
		}
		return eachUnit(k.serial, units, sp, do)
	}
	c.add(k)
}

// lowerMatMulIDInterleaved adds the expert products of MatMulID on an
// interleaved stack of experts W {K, N, E} (shapes checked by
// lowerMatMulID): per used expert, runs of its groups against each column
// routed to it, one column a tile, as llama.cpp's repacked mul_mat_id
// takes one token at a time.
func (c *compiler) lowerMatMulIDInterleaved(o *gpu.MatMulID, K, N, E, S, T, Sin int) error {
	if o.W.Type == gguf.Q4_K {
		return c.lowerMatMulIDInterleavedQ4K(o, K, N, E, S, T, Sin)
	}
	s := c.tiledActivations(o.In, true)
	plan, priv := c.addExpertPlan(o, N, E, S, T, quant.InterleavedRows)
	tb, mb := quant.TileActBytes(K), matrixBytes(o.W.Type, o.W.Shape)
	k := &kernel{name: "matmul_id", reads: []ref{{t: o.W}, {s: s}, {priv: priv}}, writes: refs(o.Out)}
	sp := c.newSplitter()
	k.build = func() func(ith, nth int) {
		wm, out := c.mem(o.W), c.rows(o.Out)
		return func(int, int) {
			plan.each(sp, N, func(e, r0, r1 int, pairs []int) {
				w := wm[e*mb : (e+1)*mb]
				g0, g1 := r0/quant.InterleavedRows, quant.InterleavedGroups(r1)
				for _, st := range pairs {
					j := inColumn(st, S, Sin)
					quant.InterleavedQ4_0Dot(w, N, K, g0, g1, s.mem[j*tb:(j+1)*tb], 1, out.out(st), 0)
				}
			})
		}
	}
	c.add(k)
	return nil
}

// lowerMatMulInterleavedQ4K is lowerMatMulInterleaved for Q4_K: the
// tokens' Q8_K rows (shared with every product of the same input) are
// taken four at a time in the order of llama.cpp's repacked gemm while
// whole groups of four remain, the rest (and the tokens of an Independent
// step) in its gemv's, as RowsKernel picks for a repacked matrix; workers take runs of 16-row groups, a few
// groups' weights kept in cache across the tokens.
func (c *compiler) lowerMatMulInterleavedQ4K(o *gpu.MatMul, K, N, T int) {
	actRef, _, _ := c.activations(o.In, gguf.Q4_K)
	ab := quant.ActBytes(gguf.Q4_K, K)
	gemmTokens := T &^ 3
	if c.g.Independent {
		gemmTokens = 0 // each token of its own sequence: gemv, as alone
	}
	c.addGroupProduct(o, []ref{{t: o.W}, actRef}, N, T, quant.InterleavedQ4_KBytes(quant.InterleavedRows, K),
		func(wm []byte, gs, ge int, out func(t int) []float32, stride int) {
			act := actRef.s.mem
			for t := 0; t < T; {
				m := min(4, T-t)
				quant.InterleavedQ4_KDot(wm, N, K, gs, ge, act[t*ab:], ab, m, t < gemmTokens, out(t), stride)
				t += m
			}
		})
}

// lowerMatMulIDInterleavedQ4K is lowerMatMulIDInterleaved for Q4_K: each
// column routed to an expert in the gemv order, one token at a time as
// llama.cpp's repacked mul_mat_id takes them.
func (c *compiler) lowerMatMulIDInterleavedQ4K(o *gpu.MatMulID, K, N, E, S, T, Sin int) error {
	actRef, actFn, _ := c.activations(o.In, gguf.Q4_K)
	plan, priv := c.addExpertPlan(o, N, E, S, T, quant.InterleavedRows)
	mb := matrixBytes(o.W.Type, o.W.Shape)
	k := &kernel{name: "matmul_id", reads: []ref{{t: o.W}, actRef, {priv: priv}}, writes: refs(o.Out)}
	sp := c.newSplitter()
	k.build = func() func(ith, nth int) {
		wm, act, out := c.mem(o.W), actFn(), c.rows(o.Out)
		return func(int, int) {
			plan.each(sp, N, func(e, r0, r1 int, pairs []int) {
				w := wm[e*mb : (e+1)*mb]
				g0, g1 := r0/quant.InterleavedRows, quant.InterleavedGroups(r1)
				for _, st := range pairs {
					quant.InterleavedQ4_KDot(w, N, K, g0, g1, act(inColumn(st, S, Sin)), 0, 1, false, out.out(st), 0)
				}
			})
		}
	}
	c.add(k)
	return nil
}
