package synth

import (
	"github.com/emberllm/ember/engine/gguf"
)

// kvList is metadata under construction: keys in order, a later Set of
// the same key replacing the earlier value.
type kvList []gguf.KV

func (l *kvList) Set(key string, v gguf.Value) {
	for i := range *l {
		if (*l)[i].Key == key {
			(*l)[i].Value = v
			return
		}
	}
	*l = append(*l, gguf.KV{Key: key, Value: v})
}

// metadata sets the architecture keys llama.cpp's loader reads, named and
// typed as the converters write them.
func (c *Config) metadata(m *kvList) {
	a := c.Arch.GGUFArch()
	u32 := func(k string, v int) { m.Set(a+"."+k, gguf.ValU32(uint32(v))) }
	f32 := func(k string, v float32) { m.Set(a+"."+k, gguf.ValF32(v)) }

	m.Set("general.architecture", gguf.ValStr(a))
	name := c.Name
	if name == "" {
		name = "synthetic " + string(c.Arch)
	}
	m.Set("general.name", gguf.ValStr("synth "+name))
	m.Set("general.description", gguf.ValStr("synthetic model with random weights written by ember synth"))
	u32("vocab_size", c.Vocab)
	u32("context_length", c.Context)
	u32("embedding_length", c.Embd)
	u32("block_count", c.Layers)
	if c.FF > 0 {
		u32("feed_forward_length", c.FF)
	}
	u32("attention.head_count", c.Heads)
	f32("attention.layer_norm_rms_epsilon", c.RMSEps)
	f32("rope.freq_base", c.RopeBase)

	if c.Arch.mla() {
		// MLA is stored as MQA over the latent: one KV head whose key is
		// the compressed KV plus the rope part, decompressed per head by
		// attn_k_b/attn_v_b (key_length_mla/value_length_mla).
		if c.LegacyKVB {
			// files from before the split kept one KV head per head
			u32("attention.head_count_kv", c.Heads)
		} else {
			u32("attention.head_count_kv", 1)
		}
		u32("leading_dense_block_count", c.LeadingDense)
		lite := c.QLoRA == 0 && (c.Layers == 26 || c.Layers == 27)
		if !lite {
			// llama.cpp requires the key except for the V2-Lite layer
			// counts, where it knows there is none
			u32("attention.q_lora_rank", c.QLoRA)
		}
		u32("attention.kv_lora_rank", c.KVLoRA)
		if c.LegacyKVB {
			u32("attention.key_length", c.QKNope+c.QKRope)
			u32("attention.value_length", c.VHead)
		} else {
			u32("attention.key_length", c.KVLoRA+c.QKRope)
			u32("attention.value_length", c.KVLoRA)
			u32("attention.key_length_mla", c.QKNope+c.QKRope)
			u32("attention.value_length_mla", c.VHead)
		}
		u32("rope.dimension_count", c.QKRope)
		ff := c.ExpertFF
		if ff == 0 {
			ff = c.FF // dense MLA models store their FFN width here too
		}
		u32("expert_feed_forward_length", ff)
		u32("expert_shared_count", c.Shared)
		if c.Experts > 0 {
			u32("expert_count", c.Experts)
			u32("expert_used_count", c.ExpertsUsed)
		}
		if c.Groups > 0 {
			u32("expert_group_count", c.Groups)
			u32("expert_group_used_count", c.Groups)
		}
		if c.RoutedScale != 0 {
			f32("expert_weights_scale", c.RoutedScale)
		}
		if c.NormTopK {
			m.Set(a+".expert_weights_norm", gguf.ValBool(true))
		}
		if c.Gating != 0 {
			u32("expert_gating_func", c.Gating)
		}
	} else {
		u32("attention.head_count_kv", c.HeadsKV)
		u32("attention.key_length", c.HeadDim)
		u32("attention.value_length", c.HeadDim)
		u32("rope.dimension_count", c.HeadDim)
		if c.Experts > 0 {
			u32("expert_count", c.Experts)
			u32("expert_used_count", c.ExpertsUsed)
			if c.Arch == Qwen3MoE {
				u32("expert_feed_forward_length", c.ExpertFF)
			}
		}
	}
	if y := c.Yarn; y != nil {
		m.Set(a+".rope.scaling.type", gguf.ValStr("yarn"))
		f32("rope.scaling.factor", y.Factor)
		u32("rope.scaling.original_context_length", y.OrigContext)
		f32("rope.scaling.yarn_beta_fast", y.BetaFast)
		f32("rope.scaling.yarn_beta_slow", y.BetaSlow)
		// DeepSeek2 files store 0.1*mscale_all_dim (llama.cpp divides it out)
		f32("rope.scaling.yarn_log_multiplier", 0.1*y.MscaleAllDim)
	}
}
