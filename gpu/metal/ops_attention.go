package metal

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// ropeParams are parts/rope_angle.metal's: a rope's constants.
type ropeParams struct {
	RopeDims   int
	RopeNeox   bool
	ThetaScale float32
	FreqScale  float32
	ExtFactor  float32
	CorrLo     float32 // YaRN's ramp
	CorrHi     float32
	Mscale     float32
	HasFactors bool
}

// ropeKernelParams are rope.metal's: heads of HeadDim elements, H a
// token, T tokens.
type ropeKernelParams struct {
	HeadDim, H, T int
	ropeParams
	In, Out loc
}

func (c *compiler) lowerRope(o *gpu.Rope) error {
	if err := gpu.CheckRope(o, c.g.Tokens); err != nil {
		return err
	}
	hd, H, T := o.In.Shape[0], o.In.Shape[1], o.In.Shape[2]
	ff := o.In
	if o.FreqFactors != nil {
		ff = o.FreqFactors
	}
	ops, err := c.operands(o.In, ff, o.Out)
	if err != nil {
		return err
	}
	a := o.Angles()
	rp := ropeParams{RopeDims: o.Dims, RopeNeox: o.Mode == gpu.RopeNeoX, ThetaScale: a.ThetaScale, FreqScale: o.FreqScale,
		ExtFactor: o.ExtFactor, CorrLo: a.CorrLo, CorrHi: a.CorrHi, Mscale: a.MScale, HasFactors: o.FreqFactors != nil}
	p := ropeKernelParams{hd, H, T, rp, ops[0].loc, ops[2].loc}
	return c.dispatch("rope", "", p, true, args(ops...), groupsOf(hd*H*T, 256))
}

// kvStoreParams are kv_store.metal's: the step's tokens, whether it
// stores values, and the keys' and the values' sides.
type kvStoreParams struct {
	Tokens int
	HasV   bool
	K, V   kvSide
}

// kvSide is one cache's words: rows of Width values, Row elements apart in
// the cache, Half for an F16 cache, the step's rows at Src.
type kvSide struct {
	Width, Row int
	Half       bool
	Src        loc
}

func (c *compiler) lowerKVStore(o *gpu.KVStore) error {
	if (o.V == nil) != (o.CacheV == nil) {
		return fmt.Errorf("V and CacheV go together")
	}
	p := kvStoreParams{Tokens: c.g.Tokens, HasV: o.V != nil}
	k, err := c.kvSide(&p.K, o.K, o.CacheK, "K")
	if err != nil {
		return err
	}
	a := []arg{k[0].arg, k[1].arg, k[0].arg, k[1].arg}
	n := p.K.Width
	if p.HasV {
		v, err := c.kvSide(&p.V, o.V, o.CacheV, "V")
		if err != nil {
			return err
		}
		a[2], a[3] = v[0].arg, v[1].arg
		n += p.V.Width
	}
	return c.dispatch("kv_store", "", p, true, a, groupsOf(n*c.g.Tokens, 256))
}

// kvSide checks one source and cache, sets their words and returns their
// operands.
func (c *compiler) kvSide(p *kvSide, src, cache *gpu.Tensor, what string) ([]operand, error) {
	if err := gpu.WantType(src, what, tF32); err != nil {
		return nil, err
	}
	D, T := src.Shape[0], src.Shape[1]
	if T != c.g.Tokens || src.Shape[2] != 1 || src.Shape[3] != 1 {
		return nil, fmt.Errorf("%s %s has shape %v, want {D, %d}", what, src.Name, src.Shape, c.g.Tokens)
	}
	if err := c.checkCache(cache, "Cache"+what, D); err != nil {
		return nil, err
	}
	c.p.needCtx(cache.Shape[1])
	ops, err := c.operands(src, cache)
	if err != nil {
		return nil, err
	}
	*p = kvSide{Width: D, Row: D, Half: cache.Type == tF16, Src: ops[0].loc}
	return ops, nil
}

// checkCache adds to gpu.CheckCache what the kernels index by: a packed
// cache of its own (not a view), which starts its argument.
func (c *compiler) checkCache(t *gpu.Tensor, what string, width int) error {
	if err := gpu.CheckCache(t, what, width, c.g.Tokens); err != nil {
		return err
	}
	if t.Kind == gpu.View || !t.Contiguous() {
		return fmt.Errorf("%s %s must be packed", what, t.Name)
	}
	return nil
}

// attentionHead are the words every attention kernel reads
// (parts/attend.metal): the head sizes, query heads, tokens and key heads,
// the scores' scale, and the caches' layout: elements between key rows,
// between value rows, and between the value heads of a row.
type attentionHead struct {
	DK, DV, H, T, HKV                 int
	Scale                             float32
	KeyStride, ValueStride, ValueHead int
}

// attentionParams are attention.metal's: the query and the output.
type attentionParams struct {
	attentionHead
	Q, Out loc
}

// attentionScoresParams are attention_scores.metal's: the query and the
// threadgroups splitting each head's cache rows (Chunks).
type attentionScoresParams struct {
	attentionHead
	Q      loc
	Chunks int
}

// attentionValuesParams are attention_values.metal's: the output and the
// chunks of each score row.
type attentionValuesParams struct {
	attentionHead
	Out    loc
	Chunks int
}

// scoreRows is SCORE_ROWS of attention_scores.metal: the cache rows one
// threadgroup of the scores pass takes; valueSlice is VALUE_SLICE of
// attention_values.metal, the value dimensions one threadgroup sums.
const (
	scoreRows  = 16
	valueSlice = 32
	// maxScores is the most scratch memory the scores pass takes.
	maxScores = 64 << 20
)

func (c *compiler) lowerAttention(o *gpu.Attention) error {
	if err := gpu.CheckAttention(o, c.g.Tokens); err != nil {
		return err
	}
	DK, H, T := o.Q.Shape[0], o.Q.Shape[1], o.Q.Shape[2]
	DV, HKV := o.DV, o.HKV
	if DK > 640 || DV > 640 {
		return fmt.Errorf("head sizes %d/%d exceed the Metal attention kernel's 640", DK, DV)
	}
	if err := c.checkCache(o.CacheK, "CacheK", DK*HKV); err != nil {
		return err
	}
	cv := o.CacheK
	if !o.VFromK {
		if err := c.checkCache(o.CacheV, "CacheV", DV*HKV); err != nil {
			return err
		}
		if o.CacheV.Type != o.CacheK.Type {
			return fmt.Errorf("CacheK is %s and CacheV %s: the Metal kernels read both as one type", o.CacheK.Type, o.CacheV.Type)
		}
		cv = o.CacheV
	}
	c.p.needCtx(o.CacheK.Shape[1])
	ops, err := c.operands(o.Q, o.CacheK, cv, o.Out)
	if err != nil {
		return err
	}
	vstride, vhead := DK*HKV, DK
	if !o.VFromK {
		vstride, vhead = DV*HKV, DV
	}
	a := attentionHead{DK: DK, DV: DV, H: H, T: T, HKV: HKV, Scale: o.Scale, KeyStride: DK * HKV, ValueStride: vstride, ValueHead: vhead}
	dec := "cache_f32"
	if o.CacheK.Type == tF16 {
		dec = "cache_f16"
	}
	// Decode (and a decode batch, whose tokens each sum as a step of one)
	// splits each head's cache rows over threadgroups: a threadgroup a head
	// leaves a GPU nearly idle at long contexts. Prefill's many tokens fill
	// it already, in one pass, as does a batch whose scores would take more
	// than maxScores bytes.
	chunks := groupsOf(c.g.SeqRows(o.CacheK.Shape[1]), scoreRows)
	if T > 1 && !c.g.Independent || 4*chunks*scoreRows*H*T > maxScores {
		p := attentionParams{a, ops[0].loc, ops[3].loc}
		return c.dispatch("attention", dec, p, true, args(ops...), H*T)
	}
	sc, err := c.scores(chunks * scoreRows * H * T)
	if err != nil {
		return err
	}
	ps := attentionScoresParams{a, ops[0].loc, chunks}
	if err := c.dispatch("attention_scores", dec, ps, true, []arg{ops[0].arg, ops[1].arg, sc.arg}, H*T*chunks); err != nil {
		return err
	}
	pv := attentionValuesParams{a, ops[3].loc, chunks}
	return c.dispatch("attention_values", dec, pv, true, []arg{sc.arg, ops[2].arg, ops[3].arg}, H*T*groupsOf(DV, valueSlice))
}

// scores returns scratch memory of n floats for the scores pass, one for
// every layer of the graph, grown to the largest asked for. The commands
// of a graph run in order, so a layer's scores are read before the next
// layer writes its own.
func (c *compiler) scores(n int) (operand, error) {
	if c.scratch == nil || c.scratch.Elements() < n {
		c.scratch = &gpu.Tensor{Name: c.g.Name + ".scores", Type: tF32, Shape: gpu.Shape4(n), Kind: gpu.Activation}
	}
	return c.operand(c.scratch)
}
