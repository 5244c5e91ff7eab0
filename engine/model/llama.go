package model

import (
	"github.com/emberllm/ember/gpu"
)

// Llama is the decoder of Llama 2/3 (and TinyStories, which uses its layout)
// and of Qwen3, which adds an RMSNorm on each query and key head and rotates
// halves (NeoX) rather than adjacent pairs:
//
//	x = embed(tokens)
//	per layer:  x += Wo · attention(rope(Wq·n), rope(Wk·n), Wv·n)   n = norm(x)
//	            x += Wdown · (silu(Wgate·n) ⊙ Wup·n)                 n = norm(x)
//	logits = Wout · norm(x)            (Wout = the embedding when tied)
type llama struct {
	c         *Config
	embd      gpu.Buffer
	outNorm   gpu.Buffer
	output    gpu.Buffer
	ropeFreqs gpu.Buffer
	qkNorm    bool
	layers    []llamaLayer
}

type llamaLayer struct {
	attnNorm, wq, wk, wv, wo gpu.Buffer
	qNorm, kNorm             gpu.Buffer
	ffnNorm, gate, up, down  gpu.Buffer
}

func configureLlama(c *Config, m *meta) error {
	c.RopeNeoX = c.Arch == "qwen3"
	if c.FFN <= 0 {
		c.FFN = m.need("feed_forward_length")
	}
	return nil
}

func bindLlama(c *Config, w *weights) (network, error) {
	n := &llama{c: c, qkNorm: c.Arch == "qwen3"}
	D, hk, hv := c.Dim, c.HeadDimK, c.HeadDimV
	n.embd = w.get("token_embd.weight", D, c.Vocab)
	n.outNorm = w.get("output_norm.weight", D)
	n.output = w.optional("output.weight", D, c.Vocab)
	if n.output == nil {
		n.output = n.embd // tied embeddings
	}
	n.ropeFreqs = w.optional("rope_freqs.weight", c.RopeDims/2)
	for l := 0; l < c.Layers; l++ {
		L := llamaLayer{
			attnNorm: w.get(blk(l, "attn_norm"), D),
			wq:       w.get(blk(l, "attn_q"), D, hk*c.Heads),
			wk:       w.get(blk(l, "attn_k"), D, hk*c.KVHeads),
			wv:       w.get(blk(l, "attn_v"), D, hv*c.KVHeads),
			wo:       w.get(blk(l, "attn_output"), hv*c.Heads, D),
			ffnNorm:  w.get(blk(l, "ffn_norm"), D),
			gate:     w.get(blk(l, "ffn_gate"), D, c.FFN),
			up:       w.get(blk(l, "ffn_up"), D, c.FFN),
			down:     w.get(blk(l, "ffn_down"), c.FFN, D),
		}
		if n.qkNorm {
			L.qNorm = w.get(blk(l, "attn_q_norm"), hk)
			L.kNorm = w.get(blk(l, "attn_k_norm"), hk)
		}
		n.layers = append(n.layers, L)
	}
	return n, w.err
}

func (n *llama) cacheShape() (dk, dv int) {
	return n.c.HeadDimK * n.c.KVHeads, n.c.HeadDimV * n.c.KVHeads
}

func (n *llama) build(b *builder, tokens *gpu.Tensor) {
	c, T := n.c, b.T
	x := b.act("embd", c.Dim, T)
	b.g.Do(&gpu.Embed{Table: b.w(n.embd, "token_embd"), Tokens: tokens, Out: x})
	for l, L := range n.layers {
		h := b.rmsnorm(x, L.attnNorm, "attn_norm")
		a := b.gqa(l, h, L.wq, L.wk, L.wv, L.qNorm, L.kNorm, n.ropeFreqs, c.RopeNeoX)
		x = b.afterAttention(l, len(n.layers), b.add(x, b.matmul(L.wo, a, "attn_output")))
		h = b.rmsnorm(x, L.ffnNorm, "ffn_norm")
		x = b.add(x, b.swiglu(h, L.gate, L.up, L.down, "ffn"))
	}
	b.head(x, n.outNorm, n.output)
}

// gqa is grouped-query attention with a per-layer KV cache: it returns the
// attention output {Hv·heads, T} before the output projection. qNorm and
// kNorm, when set, normalise each head (Qwen3).
func (b *builder) gqa(l int, h *gpu.Tensor, wq, wk, wv, qNorm, kNorm, freqs gpu.Buffer, neox bool) *gpu.Tensor {
	c, T := b.c, b.T
	q := b.g.Reshape(b.matmul(wq, h, "q"), c.HeadDimK, c.Heads, T)
	k := b.g.Reshape(b.matmul(wk, h, "k"), c.HeadDimK, c.KVHeads, T)
	v := b.matmul(wv, h, "v")
	if qNorm != nil {
		q = b.rmsnorm(q, qNorm, "q_norm")
		k = b.rmsnorm(k, kNorm, "k_norm")
	}
	b.rope(q, c.RopeDims, neox, freqs)
	b.rope(k, c.RopeDims, neox, freqs)
	ck := b.w(b.cache.K[l], "cache_k")
	cv := b.w(b.cache.V[l], "cache_v")
	b.g.Do(&gpu.KVStore{K: b.g.Reshape(k, c.HeadDimK*c.KVHeads, T), V: v, CacheK: ck, CacheV: cv})
	out := b.act("attn", c.HeadDimV, c.Heads, T)
	b.g.Do(&gpu.Attention{Q: q, CacheK: ck, CacheV: cv, Out: out, HKV: c.KVHeads, DV: c.HeadDimV,
		Scale: attnScale(c.HeadDimK)})
	return b.g.Reshape(out, c.HeadDimV*c.Heads, T)
}
