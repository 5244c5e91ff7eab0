package model

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// OLMoE (AllenAI's OLMoE-1B-7B) is a mixture of experts whose attention
// normalises the whole query and key projections (one RMSNorm over all
// heads at once, not per head) before splitting them into NeoX-roped heads:
//
//	per layer:  q = rope(norm(Wq·n)), k = rope(norm(Wk·n)), v = Wv·n
//	            x += Wo · attention(q, k, v)
//	            x += moe(n)          softmax router, top-k weights as they are
//
// Its experts are feed_forward_length wide, and the output head is its own
// matrix (never tied).
type olmoe struct {
	c       *Config
	embd    gpu.Buffer
	outNorm gpu.Buffer
	output  lin
	layers  []olmoeLayer
}

type olmoeLayer struct {
	attnNorm       gpu.Buffer
	wq, wk, wv, wo lin // q/k/v with their biases when the file has them
	qNorm, kNorm   gpu.Buffer
	ffnNorm        gpu.Buffer
	moe            moeFFN
}

func configureOLMoE(c *Config, m *meta) error {
	c.RopeNeoX = true
	if c.Experts <= 0 || c.ExpertsUsed <= 0 {
		return fmt.Errorf("%s: expert_count and expert_used_count must be positive", c.Arch)
	}
	if c.FFN <= 0 {
		c.FFN = m.need("feed_forward_length")
	}
	c.ExpertFFN = c.FFN
	if c.HeadDimK*c.Heads != c.Dim || c.HeadDimK*c.KVHeads != c.Dim || c.HeadDimV != c.HeadDimK {
		return fmt.Errorf("%s: needs heads × head size = embedding length for queries, keys and values (got %d heads of %d, %d kv heads, dim %d)",
			c.Arch, c.Heads, c.HeadDimK, c.KVHeads, c.Dim)
	}
	return nil
}

func bindOLMoE(c *Config, w *weights) (network, error) {
	n := &olmoe{c: c}
	D := c.Dim
	n.embd = w.get("token_embd.weight", D, c.Vocab)
	n.outNorm = w.get("output_norm.weight", D)
	n.output.w = w.get("output.weight", D, c.Vocab)
	for l := 0; l < c.Layers; l++ {
		if err := fusedQKV(w, l); err != nil {
			return nil, err
		}
		n.layers = append(n.layers, olmoeLayer{
			attnNorm: w.get(blk(l, "attn_norm"), D),
			wq:       w.linear(blkName(l, "attn_q"), true, D, D),
			wk:       w.linear(blkName(l, "attn_k"), true, D, D),
			wv:       w.linear(blkName(l, "attn_v"), true, D, D),
			wo:       w.linear(blkName(l, "attn_output"), false, D, D),
			qNorm:    w.get(blk(l, "attn_q_norm"), D),
			kNorm:    w.get(blk(l, "attn_k_norm"), D),
			ffnNorm:  w.get(blk(l, "ffn_norm"), D),
			moe:      bindMoE(w, l, D, c.FFN, c.Experts, 0),
		})
	}
	return n, w.err
}

func (n *olmoe) cacheShape() (dk, dv int) { return n.c.Dim, n.c.Dim }

func (n *olmoe) build(b *builder, tokens *gpu.Tensor) {
	c, T := n.c, b.T
	r := routing{K: c.ExpertsUsed, Gating: gpu.GateSoftmax, Scale: 1}
	x := b.act("embd", c.Dim, T)
	b.g.Do(&gpu.Embed{Table: b.w(n.embd, "token_embd"), Tokens: tokens, Out: x})
	for l := range n.layers {
		L := &n.layers[l]
		h := b.rmsnorm(x, L.attnNorm, "attn_norm")
		x = b.afterAttention(l, len(n.layers), b.add(x, b.linear(L.wo, n.attention(b, l, h, L), "attn_output")))
		h = b.rmsnorm(x, L.ffnNorm, "ffn_norm")
		x = b.add(x, b.moe(h, &L.moe, r))
	}
	b.headLin(x, n.outNorm, n.output)
}

// attention normalises the full projections, then runs multi-head
// attention over the layer's cache; it returns {D, T}.
func (n *olmoe) attention(b *builder, l int, h *gpu.Tensor, L *olmoeLayer) *gpu.Tensor {
	c, T, hd := n.c, b.T, n.c.HeadDimK
	q := b.rmsnorm(b.linear(L.wq, h, "q"), L.qNorm, "q_norm")
	k := b.rmsnorm(b.linear(L.wk, h, "k"), L.kNorm, "k_norm")
	v := b.linear(L.wv, h, "v")
	q = b.g.Reshape(q, hd, c.Heads, T)
	k3 := b.g.Reshape(k, hd, c.KVHeads, T)
	b.rope(q, c.RopeDims, true, nil)
	b.rope(k3, c.RopeDims, true, nil)
	ck := b.w(b.cache.K[l], "cache_k")
	cv := b.w(b.cache.V[l], "cache_v")
	b.g.Do(&gpu.KVStore{K: k, V: v, CacheK: ck, CacheV: cv})
	out := b.act("attn", hd, c.Heads, T)
	b.g.Do(&gpu.Attention{Q: q, CacheK: ck, CacheV: cv, Out: out, HKV: c.KVHeads, DV: hd,
		Scale: attnScale(hd)})
	return b.g.Reshape(out, hd*c.Heads, T)
}
