package cpu

import (
	"fmt"

	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// ropeKey identifies rope ops that rotate by the same angles: their
// cos/sin table is computed once per run and shared (every layer's q and k).
type ropeKey struct {
	dims                               int
	base, scale, ext, attn, fast, slow float32
	orig                               int
	factors                            *gpu.Tensor
	factorsVersion                     int
}

// ropeCache holds cos and sin (already multiplied by YaRN's magnitude
// scale) for each token of the step and each rotated pair.
type ropeCache struct {
	priv int
	cs   []float32 // [t][pair][cos, sin]
}

func (c *compiler) lowerRope(o *gpu.Rope) error {
	if err := wantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := wantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	if err := sameShape(o.In, o.Out, "In and Out"); err != nil {
		return err
	}
	if err := wantDense(o.Out, "Out"); err != nil {
		return err
	}
	hd, T := o.In.Shape[0], o.In.Shape[2]
	if T != c.g.Tokens || o.In.Shape[3] != 1 {
		return fmt.Errorf("In %s has shape %v, want {HeadDim, H, %d} (the graph's tokens)", o.In.Name, o.In.Shape, c.g.Tokens)
	}
	if o.Dims <= 0 || o.Dims%2 != 0 || o.Dims > hd {
		return fmt.Errorf("rotating %d dims of %d-element heads: want an even count in 2..%d", o.Dims, hd, hd)
	}
	if o.Mode != gpu.RopeNormal && o.Mode != gpu.RopeNeoX {
		return fmt.Errorf("unknown rope mode %d", o.Mode)
	}
	if !(o.FreqBase > 0) || !(o.FreqScale > 0) {
		return fmt.Errorf("frequency base %g and scale %g must be positive", o.FreqBase, o.FreqScale)
	}
	if o.AttnFactor == 0 {
		return fmt.Errorf("attention factor is 0 (1 means no scaling)")
	}
	if o.ExtFactor != 0 && o.OrigCtx <= 0 {
		return fmt.Errorf("YaRN (ext factor %g) needs the original context length, got %d", o.ExtFactor, o.OrigCtx)
	}
	if o.FreqFactors != nil {
		if err := wantType(o.FreqFactors, "FreqFactors", tF32); err != nil {
			return err
		}
		if o.FreqFactors.Elements() < o.Dims/2 || o.FreqFactors.Stride[0] != 4 {
			return fmt.Errorf("FreqFactors %s has %d elements (stride %v), want %d packed", o.FreqFactors.Name, o.FreqFactors.Elements(), o.FreqFactors.Stride, o.Dims/2)
		}
	}
	key := ropeKey{o.Dims, o.FreqBase, o.FreqScale, o.ExtFactor, o.AttnFactor, o.BetaFast, o.BetaSlow, o.OrigCtx, o.FreqFactors, 0}
	if o.FreqFactors != nil {
		key.factorsVersion = c.version[o.FreqFactors.Root()]
	}
	rc := c.ropes[key]
	if rc == nil {
		rc = &ropeCache{priv: c.newPriv(), cs: make([]float32, T*o.Dims)}
		c.ropes[key] = rc
		c.addRopeCache(o, rc, T)
	}
	dims, neox := o.Dims, o.Mode == gpu.RopeNeoX
	c.rowKernel("rope", o.Out.Rows(), hd, append(refs(o.In), ref{priv: rc.priv}), refs(o.Out), func() func(w, i int) {
		in, out := c.rows(o.In), c.rows(o.Out)
		H := o.In.Shape[1]
		return func(w, i int) {
			x, y := in.get(w, i), out.out(i)
			quant.RopeRow(y, x, rc.cs[i/H*dims:(i/H+1)*dims], dims, neox)
			if &x[0] != &y[0] {
				copy(y[dims:], x[dims:])
			}
		}
	})
	return nil
}

// addRopeCache adds the kernel filling rc for the run's positions with
// gpu.Rope.CosSin (ggml's angles, glibc's sincosf).
func (c *compiler) addRopeCache(o *gpu.Rope, rc *ropeCache, T int) {
	dims := o.Dims
	a := o.Angles()
	p := c.p
	c.rowKernel("rope.cache", T, dims*8, refs(o.FreqFactors), []ref{{priv: rc.priv}}, func() func(w, i int) {
		var ff []float32
		if o.FreqFactors != nil {
			ff = f32s(c.mem(o.FreqFactors), dims/2)
		}
		return func(w, t int) {
			o.CosSin(rc.cs[t*dims:(t+1)*dims], p.posOf(t), a, ff)
		}
	})
}
