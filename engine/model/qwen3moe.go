package model

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// Qwen3MoE is Qwen3's attention (an RMSNorm on each query and key head,
// NeoX rope) with a mixture of experts in place of every feed-forward:
//
//	per layer:  x += Wo · attention(rope(norm_h(Wq·n)), rope(norm_h(Wk·n)), Wv·n)
//	            x += moe(n)          softmax router, top-k weights renormalised
//
// The top-k renormalisation (Hugging Face's norm_topk_prob) is not stored in
// the file: llama.cpp always applies it for this architecture, and so do we.
type qwen3moe struct {
	c       *Config
	embd    gpu.Buffer
	outNorm gpu.Buffer
	output  lin
	layers  []qwen3moeLayer
}

type qwen3moeLayer struct {
	attnNorm       gpu.Buffer
	wq, wk, wv, wo lin // q/k/v with their biases when the file has them
	qNorm, kNorm   gpu.Buffer
	ffnNorm        gpu.Buffer
	moe            moeFFN
}

func configureQwen3MoE(c *Config, m *meta) error {
	c.RopeNeoX = true
	if c.Experts <= 0 || c.ExpertsUsed <= 0 {
		return fmt.Errorf("%s: expert_count and expert_used_count must be positive", c.Arch)
	}
	if c.ExpertFFN <= 0 {
		// older files keep only the total width of the used experts
		if c.FFN <= 0 || c.FFN%c.ExpertsUsed != 0 {
			return fmt.Errorf("%s: expert_feed_forward_length is missing", c.Arch)
		}
		c.ExpertFFN = c.FFN / c.ExpertsUsed
	}
	return nil
}

func bindQwen3MoE(c *Config, w *weights) (network, error) {
	n := &qwen3moe{c: c}
	D, hk, hv := c.Dim, c.HeadDimK, c.HeadDimV
	n.embd = w.get("token_embd.weight", D, c.Vocab)
	n.outNorm = w.get("output_norm.weight", D)
	n.output.w = w.optional("output.weight", D, c.Vocab)
	if n.output.w == nil {
		n.output.w = n.embd
	}
	for l := 0; l < c.Layers; l++ {
		if err := fusedQKV(w, l); err != nil {
			return nil, err
		}
		n.layers = append(n.layers, qwen3moeLayer{
			attnNorm: w.get(blk(l, "attn_norm"), D),
			wq:       w.linear(blkName(l, "attn_q"), true, D, hk*c.Heads),
			wk:       w.linear(blkName(l, "attn_k"), true, D, hk*c.KVHeads),
			wv:       w.linear(blkName(l, "attn_v"), true, D, hv*c.KVHeads),
			wo:       w.linear(blkName(l, "attn_output"), false, hv*c.Heads, D),
			qNorm:    w.get(blk(l, "attn_q_norm"), hk),
			kNorm:    w.get(blk(l, "attn_k_norm"), hk),
			ffnNorm:  w.get(blk(l, "ffn_norm"), D),
			moe:      bindMoE(w, l, D, c.ExpertFFN, c.Experts, 0),
		})
	}
	return n, w.err
}

func (n *qwen3moe) cacheShape() (dk, dv int) {
	return n.c.HeadDimK * n.c.KVHeads, n.c.HeadDimV * n.c.KVHeads
}

func (n *qwen3moe) build(b *builder, tokens *gpu.Tensor) {
	c, T := n.c, b.T
	r := routing{K: c.ExpertsUsed, Gating: gpu.GateSoftmax, Norm: true, Scale: 1}
	x := b.act("embd", c.Dim, T)
	b.g.Do(&gpu.Embed{Table: b.w(n.embd, "token_embd"), Tokens: tokens, Out: x})
	for l := range n.layers {
		L := &n.layers[l]
		h := b.rmsnorm(x, L.attnNorm, "attn_norm")
		a := b.gqa(l, h, L.wq, L.wk, L.wv, L.qNorm, L.kNorm, nil, true)
		x = b.afterAttention(l, len(n.layers), b.add(x, b.linear(L.wo, a, "attn_output")))
		h = b.rmsnorm(x, L.ffnNorm, "ffn_norm")
		x = b.add(x, b.moe(h, &L.moe, r))
	}
	b.headLin(x, n.outNorm, n.output)
}
