package model

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// Llama is the decoder of Llama 2/3 (and TinyStories, which uses its
// layout), of Qwen2/Qwen2.5, which rotates halves (NeoX) rather than
// adjacent pairs and adds a bias to the query, key and value projections,
// and of Qwen3, which rotates halves and adds an RMSNorm on each query and
// key head instead of the biases:
//
//	x = embed(tokens)
//	per layer:  x += Wo · attention(rope(Wq·n), rope(Wk·n), Wv·n)   n = norm(x)
//	            x += Wdown · (silu(Wgate·n) ⊙ Wup·n)                 n = norm(x)
//	logits = Wout · norm(x)            (Wout = the embedding when tied)
//
// Every projection takes the bias llama.cpp's loader takes for the
// architecture when the file has one (Wq·n + b): q/k/v for all three
// (Qwen2's are always there), the attention output and feed-forward for
// llama, the output head for qwen2.
type llama struct {
	c         *Config
	embd      gpu.Buffer
	outNorm   gpu.Buffer
	output    lin
	ropeFreqs gpu.Buffer
	qkNorm    bool
	layers    []llamaLayer
}

type llamaLayer struct {
	attnNorm       gpu.Buffer
	wq, wk, wv, wo lin
	qNorm, kNorm   gpu.Buffer
	ffnNorm        gpu.Buffer
	gate, up, down lin
}

func configureLlama(c *Config, m *meta) error {
	c.RopeNeoX = c.Arch == "qwen3" || c.Arch == "qwen2"
	if c.FFN <= 0 {
		c.FFN = m.need("feed_forward_length")
	}
	if c.Experts > 0 {
		return fmt.Errorf("%s: a mixture of experts in this architecture (expert_count %d) is not supported", c.Arch, c.Experts)
	}
	return nil
}

func bindLlama(c *Config, w *weights) (network, error) {
	isLlama := c.Arch == "llama"
	n := &llama{c: c, qkNorm: c.Arch == "qwen3"}
	D, hk, hv := c.Dim, c.HeadDimK, c.HeadDimV
	n.embd = w.get("token_embd.weight", D, c.Vocab)
	n.outNorm = w.get("output_norm.weight", D)
	n.output.w = w.optional("output.weight", D, c.Vocab)
	if n.output.w == nil {
		n.output.w = n.embd // tied embeddings
	} else if c.Arch == "qwen2" {
		n.output.bias = w.vector("output.bias", gpu.Shape4(c.Vocab), c.Vocab)
	}
	if isLlama {
		// llama3's frequency factors; Qwen's loaders take none
		n.ropeFreqs = w.optional("rope_freqs.weight", c.RopeDims/2)
	}
	if c.Arch == "qwen3" {
		// a reranker's classification head, which generation never reads
		// (llama.cpp loads it for rank pooling only)
		if t, ok := w.r.Tensor("cls.output.weight"); ok && len(t.Dims) == 2 {
			w.accept(t.Name, D, int(t.Dims[1]))
		}
	}
	for l := 0; l < c.Layers; l++ {
		if err := fusedQKV(w, l); err != nil {
			return nil, err
		}
		L := llamaLayer{
			attnNorm: w.get(blk(l, "attn_norm"), D),
			wq:       w.linear(blkName(l, "attn_q"), true, D, hk*c.Heads),
			wk:       w.linear(blkName(l, "attn_k"), true, D, hk*c.KVHeads),
			wv:       w.linear(blkName(l, "attn_v"), true, D, hv*c.KVHeads),
			wo:       w.linear(blkName(l, "attn_output"), isLlama, hv*c.Heads, D),
			ffnNorm:  w.get(blk(l, "ffn_norm"), D),
			gate:     w.linear(blkName(l, "ffn_gate"), isLlama, D, c.FFN),
			up:       w.linear(blkName(l, "ffn_up"), isLlama, D, c.FFN),
			down:     w.linear(blkName(l, "ffn_down"), isLlama, c.FFN, D),
		}
		if n.qkNorm {
			L.qNorm = w.get(blk(l, "attn_q_norm"), hk)
			L.kNorm = w.get(blk(l, "attn_k_norm"), hk)
		}
		n.layers = append(n.layers, L)
	}
	return n, w.err
}

// fusedQKV refuses block l's single attn_qkv (convert_hf_to_gguf.py
// --fuse-qkv), with a message saying so rather than a missing attn_q.
func fusedQKV(w *weights, l int) error {
	if w.has(blk(l, "attn_qkv")) && !w.has(blk(l, "attn_q")) {
		return fmt.Errorf("layer %d has one fused attn_qkv (convert_hf_to_gguf.py --fuse-qkv), which ember does not run yet; convert without --fuse-qkv", l)
	}
	return nil
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
		x = b.afterAttention(l, len(n.layers), b.add(x, b.linear(L.wo, a, "attn_output")))
		h = b.rmsnorm(x, L.ffnNorm, "ffn_norm")
		x = b.add(x, b.swiglu(h, L.gate, L.up, L.down, "ffn"))
	}
	b.headLin(x, n.outNorm, n.output)
}

// gqa is grouped-query attention with a per-layer KV cache: it returns the
// attention output {Hv·heads, T} before the output projection. qNorm and
// kNorm, when set, normalise each head (Qwen3).
func (b *builder) gqa(l int, h *gpu.Tensor, wq, wk, wv lin, qNorm, kNorm, freqs gpu.Buffer, neox bool) *gpu.Tensor {
	c, T := b.c, b.T
	q := b.g.Reshape(b.linear(wq, h, "q"), c.HeadDimK, c.Heads, T)
	k := b.g.Reshape(b.linear(wk, h, "k"), c.HeadDimK, c.KVHeads, T)
	v := b.linear(wv, h, "v")
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
