// Package model holds ember's model architectures: a Config read from a
// GGUF's hyperparameter keys, weights bound by their GGUF tensor names, and
// for each architecture family the graph of one step (gpu.Graph), written to
// read like the architecture's paper. One file per family: llama.go (Llama
// 2/3, TinyStories, Qwen2/Qwen2.5, Qwen3), and the mixture-of-experts and
// latent-attention families beside it. weights.go binds tensors (and
// refuses a file with tensors left over), linear.go adds the biases and
// scales of current llama.cpp files to the products.
package model

import (
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/gguf"
)

// Config is an architecture's hyperparameters, read from `{arch}.*` keys.
type Config struct {
	Arch        string
	Layers      int // blocks run: block_count less the NextN blocks
	NextN       int // nextn_predict_layers: multi-token-prediction blocks after them, not run
	Dim         int // embedding length
	FFN         int // feed-forward length of dense blocks
	Heads       int
	KVHeads     int
	HeadDimK    int // key/query head size
	HeadDimV    int // value head size
	Vocab       int
	ContextLen  int // trained context
	NormEps     float32
	RopeDims    int
	RopeBase    float32
	RopeScale   float32 // frequency scale: 1/factor for linear and YaRN
	RopeNeoX    bool
	YaRN        bool
	YaRNOrigCtx int
	YaRNLogMul  float32 // rope.scaling.yarn_log_multiplier (deepseek2's mscale_all_dim * 0.1)
	RopeAttnFac float32

	// Mixture of experts.
	Experts       int
	ExpertsUsed   int
	ExpertFFN     int
	SharedExperts int
	LeadingDense  int
	ExpertScale   float32 // routed scaling factor
	ExpertNorm    bool
	ExpertGating  int // 1 softmax, 2 sigmoid (llama.cpp's expert_gating_func)

	// Multi-head latent attention.
	QLoRARank  int
	KVLoRARank int
	QKNope     int
	QKRope     int
	MLAValue   int // value_length_mla: a head's value size after decompression
}

// meta reads `{arch}.key` values with defaults.
type meta struct {
	md   *gguf.Metadata
	arch string
	err  error
}

func (m *meta) key(k string) string { return m.arch + "." + k }

func (m *meta) int(k string, def int) int {
	v, ok := m.md.Uint(m.key(k))
	if !ok {
		if m.md.Has(m.key(k)) {
			// Some converters write per-layer arrays (e.g. head_count_kv); take
			// the first and insist the rest agree.
			if ints, ok := m.md.Ints(m.key(k)); ok && len(ints) > 0 {
				for _, x := range ints {
					if x != ints[0] && m.err == nil {
						m.err = fmt.Errorf("%s varies per layer, which is not supported", m.key(k))
					}
				}
				return int(ints[0])
			}
			if m.err == nil {
				m.err = fmt.Errorf("%s is not a non-negative integer", m.key(k))
			}
		}
		return def
	}
	if v > math.MaxInt32 {
		if m.err == nil {
			m.err = fmt.Errorf("%s = %d is out of range", m.key(k), v)
		}
		return def
	}
	return int(v)
}

func (m *meta) need(k string) int {
	v := m.int(k, -1)
	if v <= 0 && m.err == nil {
		m.err = fmt.Errorf("missing or invalid metadata key %s", m.key(k))
	}
	return v
}

func (m *meta) float(k string, def float32) float32 {
	v, ok := m.md.Float(m.key(k))
	if !ok {
		return def
	}
	return float32(v)
}

func (m *meta) bool(k string, def bool) bool {
	v, ok := m.md.Bool(m.key(k))
	if !ok {
		return def
	}
	return v
}

// ReadConfig fills a Config from a file's metadata.
func ReadConfig(md *gguf.Metadata) (*Config, error) {
	arch, ok := md.String("general.architecture")
	if !ok {
		return nil, fmt.Errorf("general.architecture is missing")
	}
	if _, ok := families[arch]; !ok {
		return nil, fmt.Errorf("unsupported architecture %q (supported: %s)", arch, supportedList())
	}
	m := &meta{md: md, arch: arch}
	c := &Config{Arch: arch}
	c.Layers = m.need("block_count")
	if c.NextN = m.int("nextn_predict_layers", 0); c.NextN > 0 {
		if c.NextN >= c.Layers {
			return nil, fmt.Errorf("%s: nextn_predict_layers %d leaves none of %d blocks", arch, c.NextN, c.Layers)
		}
		c.Layers -= c.NextN
	}
	c.Dim = m.need("embedding_length")
	c.Heads = m.need("attention.head_count")
	c.KVHeads = m.int("attention.head_count_kv", c.Heads)
	c.FFN = m.int("feed_forward_length", 0)
	if c.Heads > 0 {
		c.HeadDimK = m.int("attention.key_length", c.Dim/c.Heads)
		c.HeadDimV = m.int("attention.value_length", c.HeadDimK)
	}
	c.ContextLen = m.int("context_length", 2048)
	c.NormEps = m.float("attention.layer_norm_rms_epsilon", 1e-5)
	c.RopeDims = m.int("rope.dimension_count", c.HeadDimK)
	c.RopeBase = m.float("rope.freq_base", 10000)
	c.RopeScale = 1
	c.RopeAttnFac = 1
	scaling, _ := md.String(m.key("rope.scaling.type"))
	if f := m.float("rope.scaling.factor", 0); f > 0 && scaling != "none" && scaling != "" {
		c.RopeScale = 1 / f
	} else if f := m.float("rope.scale_linear", 0); f > 0 {
		c.RopeScale = 1 / f
	}
	if scaling == "yarn" {
		c.YaRN = true
		c.YaRNOrigCtx = m.int("rope.scaling.original_context_length", c.ContextLen)
		c.YaRNLogMul = m.float("rope.scaling.yarn_log_multiplier", 0)
		c.RopeAttnFac = m.float("rope.scaling.attn_factor", 1)
	}

	c.Experts = m.int("expert_count", 0)
	c.ExpertsUsed = m.int("expert_used_count", 0)
	c.ExpertFFN = m.int("expert_feed_forward_length", 0)
	c.SharedExperts = m.int("expert_shared_count", 0)
	c.LeadingDense = m.int("leading_dense_block_count", 0)
	c.ExpertScale = m.float("expert_weights_scale", 1)
	if c.ExpertScale == 0 {
		c.ExpertScale = 1
	}
	c.ExpertNorm = m.bool("expert_weights_norm", false)
	c.ExpertGating = m.int("expert_gating_func", 0)

	c.QLoRARank = m.int("attention.q_lora_rank", 0)
	c.KVLoRARank = m.int("attention.kv_lora_rank", 0)

	if toks, ok := md.Strings("tokenizer.ggml.tokens"); ok {
		c.Vocab = len(toks)
	}
	c.Vocab = m.int("vocab_size", c.Vocab)
	if m.err != nil {
		return nil, m.err
	}
	if err := families[arch].configure(c, m); err != nil {
		return nil, err
	}
	if m.err != nil {
		return nil, m.err
	}
	return c, c.validate()
}

func (c *Config) validate() error {
	eps := float64(c.NormEps)
	switch {
	case c.ContextLen <= 0:
		return fmt.Errorf("the file's %s.context_length is %d: a model's trained context must be a positive number of tokens", c.Arch, c.ContextLen)
	case math.IsNaN(eps):
		return fmt.Errorf("the file's %s.attention.layer_norm_rms_epsilon is not a number (NaN)", c.Arch)
	case eps <= 0 || math.IsInf(eps, 0):
		return fmt.Errorf("the file's %s.attention.layer_norm_rms_epsilon is %v: it must be a small positive number", c.Arch, eps)
	case c.Heads <= 0 || c.KVHeads <= 0 || c.Heads%c.KVHeads != 0:
		return fmt.Errorf("%s: head_count %d is not a multiple of head_count_kv %d", c.Arch, c.Heads, c.KVHeads)
	case c.HeadDimK <= 0 || c.HeadDimV <= 0:
		return fmt.Errorf("%s: invalid head size", c.Arch)
	case c.RopeDims <= 0 || c.RopeDims > c.HeadDimK || c.RopeDims%2 != 0:
		return fmt.Errorf("%s: rope dimension count %d does not fit head size %d", c.Arch, c.RopeDims, c.HeadDimK)
	case c.Vocab <= 0:
		return fmt.Errorf("%s: vocabulary size unknown (no tokenizer.ggml.tokens)", c.Arch)
	case c.Experts > 0 && (c.ExpertsUsed <= 0 || c.ExpertsUsed > c.Experts):
		return fmt.Errorf("%s: expert_used_count %d must be between 1 and expert_count %d", c.Arch, c.ExpertsUsed, c.Experts)
	}
	return nil
}
