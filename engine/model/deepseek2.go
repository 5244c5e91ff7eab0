package model

import (
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// DeepSeek2 is multi-head latent attention (MLA) with, after a few leading
// dense blocks, a mixture of experts with shared experts. DeepSeek-V2(-Lite)
// and GLM-4.7-Flash ship as this architecture, and so does Youtu-LLM, whose
// blocks are all dense (leading_dense_block_count = block_count).
//
// MLA compresses a token's keys and values into one latent vector c of
// kv_lora_rank values plus one shared rope key k_r. Per head h, with the
// query split into a no-rope part q_n and a rope part q_r:
//
//	score_h(t, s) = q_n·(K_h c_s) + rope(q_r)·rope(k_r,s) = (K_hᵀ q_n)·c_s + ...
//	out_h(t)      = V_h Σ_s softmax(score_h)(t, s) c_s
//
// so absorbing K_h (attn_k_b) into the query and V_h (attn_v_b) into the
// output lets every head attend over the same cache row [c_s, rope(k_r,s)]:
// one latent cache per token, no per-head keys or values, and the values
// are the first kv_lora_rank elements of each cached key (VFromK). This is
// the layout current llama.cpp converters write (attn_k_b/attn_v_b); older
// files with a single attn_kv_b are refused with an error saying so.
//
// Rope rotates adjacent pairs (llama.cpp's normal mode for deepseek2). With
// YaRN, llama.cpp cancels the rope's own magnitude correction and instead
// scales the attention logits by mscale² (mscale from yarn_log_multiplier,
// DeepSeek's mscale_all_dim); mlaScales reproduces that.
type deepseek2 struct {
	c        *Config
	embd     gpu.Buffer
	outNorm  gpu.Buffer
	output   lin
	layers   []deepseek2Layer
	route    routing
	ropeAttn float32 // the rope op's attention factor
	kqScale  float32 // the attention logits' scale
}

type deepseek2Layer struct {
	attnNorm         gpu.Buffer
	wq               lin        // attn_q {D, H·(nope+rope)} when there is no q low-rank path
	wqA, qANorm, wqB gpu.Buffer // attn_q_a {D, Rq}, its norm, attn_q_b {Rq, H·(nope+rope)}
	wkvA, kvANorm    gpu.Buffer // attn_kv_a_mqa {D, Rkv+rope}, attn_kv_a_norm {Rkv}
	wkB, wvB         gpu.Buffer // attn_k_b {nope, Rkv, H}, attn_v_b {Rkv, V, H}
	wo               lin        // attn_output {H·V, D}
	ffnNorm          gpu.Buffer
	gate, up, down   lin     // dense blocks
	moe              *moeFFN // expert blocks
}

func configureDeepSeek2(c *Config, m *meta) error {
	c.RopeNeoX = false
	if !m.md.Has(m.key("attention.key_length_mla")) {
		return fmt.Errorf("%s: the file has no attention.key_length_mla: it is the older layout with one attn_kv_b per layer, "+
			"which ember does not run; convert the model again with a current llama.cpp (it writes attn_k_b and attn_v_b)", c.Arch)
	}
	keyMLA := m.need("attention.key_length_mla")
	c.MLAValue = m.need("attention.value_length_mla")
	c.QKRope = c.RopeDims
	c.QKNope = keyMLA - c.QKRope
	if m.err != nil {
		return m.err
	}
	switch {
	case c.KVLoRARank <= 0:
		return fmt.Errorf("%s: attention.kv_lora_rank must be positive", c.Arch)
	case c.QKNope <= 0:
		return fmt.Errorf("%s: key_length_mla %d leaves no room beside %d rope dimensions", c.Arch, keyMLA, c.QKRope)
	case c.KVHeads != 1 || c.HeadDimK != c.KVLoRARank+c.QKRope || c.HeadDimV != c.KVLoRARank:
		return fmt.Errorf("%s: expected one latent KV head of key length kv_lora_rank+rope = %d and value length %d, got %d heads, %d and %d",
			c.Arch, c.KVLoRARank+c.QKRope, c.KVLoRARank, c.KVHeads, c.HeadDimK, c.HeadDimV)
	case c.LeadingDense < 0 || c.LeadingDense > c.Layers:
		return fmt.Errorf("%s: leading_dense_block_count %d exceeds block_count %d", c.Arch, c.LeadingDense, c.Layers)
	case c.LeadingDense > 0 && c.FFN <= 0:
		return fmt.Errorf("%s: dense blocks need feed_forward_length", c.Arch)
	}
	if c.LeadingDense == c.Layers {
		return nil // dense (Youtu-LLM): no expert keys matter
	}
	if c.Experts <= 0 || c.ExpertsUsed <= 0 || c.ExpertFFN <= 0 {
		return fmt.Errorf("%s: expert blocks need expert_count, expert_used_count and expert_feed_forward_length", c.Arch)
	}
	if c.ExpertGating == 0 {
		// files from before the key existed: llama.cpp recognises GLM-4.7
		// Flash by its shape and routes it by sigmoid, everything else by
		// softmax
		c.ExpertGating = 1
		if (c.Layers == 47 || c.Layers == 48) && c.Vocab == 154880 {
			c.ExpertGating = 2
		}
	}
	if _, err := gatingFromFile(c.Arch, c.ExpertGating); err != nil {
		return err
	}
	if g, used := m.int("expert_group_count", 0), m.int("expert_group_used_count", 0); g > 1 && used < g {
		return fmt.Errorf("%s: group-limited expert routing (%d of %d groups) is not supported", c.Arch, used, g)
	}
	return nil
}

func bindDeepSeek2(c *Config, w *weights) (network, error) {
	n := &deepseek2{c: c}
	n.ropeAttn, n.kqScale = mlaScales(c)
	if c.LeadingDense < c.Layers {
		gating, _ := gatingFromFile(c.Arch, c.ExpertGating)
		n.route = routing{K: c.ExpertsUsed, Gating: gating, Norm: c.ExpertNorm, Scale: c.ExpertScale}
	}
	D, H := c.Dim, c.Heads
	qk, rkv := c.QKNope+c.QKRope, c.KVLoRARank
	n.embd = w.get("token_embd.weight", D, c.Vocab)
	n.outNorm = w.get("output_norm.weight", D)
	n.output.w = w.optional("output.weight", D, c.Vocab)
	if n.output.w == nil {
		n.output.w = n.embd
	}
	// A multi-token-prediction block (GLM-4.7-Flash converted with its
	// NextN layer: nextn_predict_layers, appended past the trunk) predicts
	// draft tokens for speculative decoding; llama.cpp skips it unless
	// asked for that, and so does ember.
	if c.NextN > 0 {
		trunk := c.Layers
		w.skip = func(name string) bool {
			var l int
			var rest string
			_, err := fmt.Sscanf(name, "blk.%d.%s", &l, &rest)
			return err == nil && l >= trunk
		}
	}
	for l := 0; l < c.Layers; l++ {
		if w.has(blk(l, "attn_kv_b")) && !w.has(blk(l, "attn_k_b")) {
			return nil, fmt.Errorf("layer %d has the older single attn_kv_b, which ember does not run; convert the model again with a current llama.cpp", l)
		}
		L := deepseek2Layer{
			attnNorm: w.get(blk(l, "attn_norm"), D),
			wkvA:     w.get(blk(l, "attn_kv_a_mqa"), D, rkv+c.QKRope),
			kvANorm:  w.get(blk(l, "attn_kv_a_norm"), rkv),
			wkB:      w.get(blk(l, "attn_k_b"), c.QKNope, rkv, H),
			wvB:      w.get(blk(l, "attn_v_b"), rkv, c.MLAValue, H),
			wo:       w.linear(blkName(l, "attn_output"), false, H*c.MLAValue, D),
			ffnNorm:  w.get(blk(l, "ffn_norm"), D),
		}
		if c.QLoRARank > 0 {
			L.wqA = w.get(blk(l, "attn_q_a"), D, c.QLoRARank)
			L.qANorm = w.get(blk(l, "attn_q_a_norm"), c.QLoRARank)
			L.wqB = w.get(blk(l, "attn_q_b"), c.QLoRARank, H*qk)
		} else {
			L.wq = w.linear(blkName(l, "attn_q"), false, D, H*qk)
		}
		if l < c.LeadingDense {
			L.gate = w.linear(blkName(l, "ffn_gate"), false, D, c.FFN)
			L.up = w.linear(blkName(l, "ffn_up"), false, D, c.FFN)
			L.down = w.linear(blkName(l, "ffn_down"), false, c.FFN, D)
		} else {
			m := bindMoE(w, l, D, c.ExpertFFN, c.Experts, c.ExpertFFN*c.SharedExperts)
			L.moe = &m
		}
		n.layers = append(n.layers, L)
	}
	return n, w.err
}

// mlaScales follows llama.cpp's YaRN bookkeeping for deepseek2: the rope's
// attention factor is chosen so the rope itself does not rescale, and the
// logits get mscale² / sqrt(key length) instead.
func mlaScales(c *Config) (ropeAttn, kqScale float32) {
	fs := float64(c.RopeScale)
	logMul := float64(c.YaRNLogMul) / 0.1 // the converter stores 0.1·mscale_all_dim
	mscale := func(scale, m float64) float64 {
		if scale <= 1 {
			return 1
		}
		return float64(0.1*m*math.Log(scale)) + 1 // rounded before the add, as on amd64: arm64 Go would fuse
	}
	af := 1.0
	if c.YaRN {
		factor := 1 / fs
		if logMul != 0 {
			m := 1.0
			if logMul != 1 {
				m = logMul
			}
			af = mscale(factor, m) / mscale(factor, logMul)
		} else {
			af = mscale(factor, 1)
		}
		af /= 1 + float64(0.1*math.Log(factor))
	}
	af *= float64(c.RopeAttnFac)
	// the logits' scale in llama.cpp's float32 arithmetic (fused where its
	// build fuses): without YaRN exactly its 1/sqrtf(key length)
	af32, fs32 := float32(af), float32(fs)
	lg := float32(math.Log(float64(1 / fs32)))
	org := af32 * quant.FMA32(0.1, lg, 1)
	ms := org * quant.FMA32(0.1*float32(logMul), lg, 1)
	return af32, ms * ms / float32(math.Sqrt(float64(c.QKNope+c.QKRope)))
}

func (n *deepseek2) cacheShape() (dk, dv int) { return n.c.KVLoRARank + n.c.QKRope, 0 }

func (n *deepseek2) build(b *builder, tokens *gpu.Tensor) {
	c, T := n.c, b.T
	x := b.act("embd", c.Dim, T)
	b.g.Do(&gpu.Embed{Table: b.w(n.embd, "token_embd"), Tokens: tokens, Out: x})
	for l := range n.layers {
		L := &n.layers[l]
		h := b.rmsnorm(x, L.attnNorm, "attn_norm")
		x = b.afterAttention(l, len(n.layers), b.add(x, b.linear(L.wo, n.mla(b, l, h, L), "attn_output")))
		h = b.rmsnorm(x, L.ffnNorm, "ffn_norm")
		if L.moe != nil {
			x = b.add(x, b.moe(h, L.moe, n.route))
		} else {
			x = b.add(x, b.swiglu(h, L.gate, L.up, L.down, "ffn"))
		}
	}
	b.headLin(x, n.outNorm, n.output)
}

// view3 is a strided F32 view of n elements out of rows of `row` elements,
// for heads rows per token, starting at element off of each row.
func view3(b *builder, name string, t *gpu.Tensor, off, n, row, heads, T int) *gpu.Tensor {
	st := [4]int{4, row * 4, row * heads * 4, row * heads * T * 4}
	return b.g.View(name, t, off*4, gpu.Shape4(n, heads, T), &st)
}

// mla is the absorbed latent attention of layer l; it returns the heads'
// decompressed values {H·V, T} ready for the output projection.
func (n *deepseek2) mla(b *builder, l int, h *gpu.Tensor, L *deepseek2Layer) *gpu.Tensor {
	c, T, H := n.c, b.T, n.c.Heads
	nope, rope, rkv := c.QKNope, c.QKRope, c.KVLoRARank
	qk, row := nope+rope, rkv+rope

	// The query's first product and kv_a read the same normed input, next
	// to each other so a backend can take both in one pass over it.
	var q, kv *gpu.Tensor
	if L.wq.w != nil {
		q = b.linear(L.wq, h, "q")
		kv = b.matmul(L.wkvA, h, "kv_a")
	} else {
		qa := b.matmul(L.wqA, h, "q_a")
		kv = b.matmul(L.wkvA, h, "kv_a")
		q = b.matmul(L.wqB, b.rmsnorm(qa, L.qANorm, "q_a_norm"), "q_b")
	}
	// the query as the cache sees it: per head [K_hᵀ q_n, rope(q_r)]
	Q := b.act("q_mla", row, H, T)
	b.g.Do(&gpu.MatMul{W: b.w(L.wkB, "attn_k_b"), In: view3(b, "q_nope", q, 0, nope, qk, H, T),
		Out: view3(b, "q_absorbed", Q, 0, rkv, row, H, T)})

	// From the query's rope to the attention, one run of ops a backend
	// can take as one decode kernel: the token's cache row [norm(c),
	// rope(k_r)], normed and roped in place, then stored.
	b.g.Do(n.ropeOp(b, view3(b, "q_pe", q, nope, rope, qk, H, T), view3(b, "q_pe_roped", Q, rkv, rope, row, H, T)))
	lat := view3(b, "kv_latent", kv, 0, rkv, row, 1, T)
	kpe := view3(b, "k_pe", kv, rkv, rope, row, 1, T)
	b.g.Do(&gpu.RMSNorm{In: lat, Weight: b.w(L.kvANorm, "attn_kv_a_norm"), Out: lat, Eps: c.NormEps})
	b.g.Do(n.ropeOp(b, kpe, kpe))
	ck := b.w(b.cache.K[l], "cache_latent")
	b.g.Do(&gpu.KVStore{K: kv, CacheK: ck})

	att := b.act("attn_latent", rkv, H, T)
	b.g.Do(&gpu.Attention{Q: Q, CacheK: ck, Out: att, HKV: 1, DV: rkv, VFromK: true, Scale: n.kqScale})
	out := b.act("attn_v", c.MLAValue, H, T)
	b.g.Do(&gpu.MatMul{W: b.w(L.wvB, "attn_v_b"), In: att, Out: out})
	return b.g.Reshape(out, c.MLAValue*H, T)
}

func (n *deepseek2) ropeOp(b *builder, in, out *gpu.Tensor) *gpu.Rope {
	c := n.c
	op := &gpu.Rope{In: in, Out: out, Dims: c.QKRope, Mode: gpu.RopeNormal,
		FreqBase: c.RopeBase, FreqScale: c.RopeScale, AttnFactor: n.ropeAttn, Ctx: b.cache.Ctx}
	if c.YaRN {
		op.ExtFactor, op.BetaFast, op.BetaSlow, op.OrigCtx = 1, 32, 1, c.YaRNOrigCtx
	}
	return op
}
