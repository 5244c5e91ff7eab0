package cpu

import (
	"fmt"

	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

func (c *compiler) lowerKVStore(o *gpu.KVStore) error {
	T := c.g.Tokens
	type pair struct{ src, dst *gpu.Tensor }
	ps := []pair{{o.K, o.CacheK}}
	if (o.V == nil) != (o.CacheV == nil) {
		return fmt.Errorf("V and CacheV must both be set or both be nil")
	}
	if o.V != nil {
		ps = append(ps, pair{o.V, o.CacheV})
	}
	for i, p := range ps {
		name := [2]string{"K", "V"}[i]
		if err := wantType(p.src, name, tF32); err != nil {
			return err
		}
		d := p.src.Shape[0]
		if p.src.Shape != gpu.Shape4(d, T) {
			return fmt.Errorf("%s %s has shape %v, want {D, %d} (the graph's tokens; fold heads into D)", name, p.src.Name, p.src.Shape, T)
		}
		if err := gpu.CheckCache(p.dst, "Cache"+name, d, T); err != nil {
			return err
		}
		c.p.needCtx(p.dst.Shape[1])
	}
	for _, p := range ps {
		src, dst := p.src, p.dst
		d := src.Shape[0]
		pr := c.p
		c.rowKernel("kv_store", T, d, refs(src), refs(dst), func() func(w, i int) {
			in, cm, st := c.rows(src), c.mem(dst), dst.Stride[1]
			f16 := dst.Type == tF16
			return func(w, t int) {
				x := in.get(w, t)
				row := cm[(pr.baseOf(t)+pr.posOf(t))*st:]
				if f16 {
					quant.EncodeF16(u16s(row, d), x)
					return
				}
				copy(f32s(row, d), x)
			}
		})
	}
	return nil
}

func (c *compiler) lowerAttention(o *gpu.Attention) error {
	if err := gpu.CheckAttention(o, c.g.Tokens); err != nil {
		return err
	}
	DK, H, T := o.Q.Shape[0], o.Q.Shape[1], o.Q.Shape[2]
	HKV, DV, ctx := o.HKV, o.DV, o.CacheK.Shape[1]
	c.p.needCtx(ctx)
	group := H / HKV
	scale := o.Scale
	p := c.p
	k := &kernel{name: "attention", reads: refs(o.Q, o.CacheK, o.CacheV), writes: refs(o.Out)}
	sp := c.newSplitter()
	// One token multiplies like llama.cpp's single-token products, several
	// like its batched ones (see attend); tokens of different sequences
	// each like one token.
	order := orderVec
	if T > 1 && !c.g.Independent {
		order = orderGemm
	}
	k.build = func() func(ith, nth int) {
		q, out := c.rows(o.Q), c.rows(o.Out)
		km, kst, kt := c.mem(o.CacheK), o.CacheK.Stride[1], o.CacheK.Type
		vm, vst, vt, vw := km, kst, kt, DK // VFromK: value head j starts where key head j does
		if !o.VFromK {
			vm, vst, vt, vw = c.mem(o.CacheV), o.CacheV.Stride[1], o.CacheV.Type, DV
		}
		ke, ve := kt.TypeSize(), vt.TypeSize()
		ws := make([]*attnScratch, c.nth)
		for i := range ws {
			ws[i] = newAttnScratch(ctx, DK, DV, order)
		}
		return func(ith, _ int) {
			w := ws[ith]
			sp.each(H*T, 1, func(lo, hi int) {
				for u := lo; u < hi; u++ {
					h, t := u%H, u/H
					kvh := h / group
					n, b := p.posOf(t)+1, p.baseOf(t)
					w.query(q.get(ith, u)[:DK], kt == tF16)
					koff := b*kst + kvh*DK*ke
					w.scores(n, km[koff:], kst, kt, scale)
					w.softmax(n, vt == tF16)
					voff := b*vst + kvh*vw*ve
					w.weighted(out.out(u), n, vm[voff:], vst, vt)
				}
			})
		}
	}
	c.add(k)
	return nil
}
