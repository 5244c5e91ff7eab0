package synth

import (
	"fmt"
	"sort"
	"strings"
)

// Shapes of real models, from their published config.json files. Each
// implies its architecture. The vocabulary size is the real one: the
// built-in tokenizer is padded up to it so the embedding and output shapes
// are real.
var presets = map[string]Config{
	"stories15m": {
		Arch: Llama, Vocab: 32000, Embd: 288, Layers: 6, Heads: 6, HeadsKV: 6, HeadDim: 48, FF: 768,
		Context: 256, RopeBase: 10000, RMSEps: 1e-5, Tied: true,
	},
	"llama3.2:1b": {
		Arch: Llama, Vocab: 128256, Embd: 2048, Layers: 16, Heads: 32, HeadsKV: 8, HeadDim: 64, FF: 8192,
		Context: 131072, RopeBase: 500000, RMSEps: 1e-5, Tied: true,
		Llama3: &Llama3Rope{Factor: 32, LowFreqFactor: 1, HighFreqFactor: 4, OrigContext: 8192},
	},
	"llama3.2:3b": {
		Arch: Llama, Vocab: 128256, Embd: 3072, Layers: 28, Heads: 24, HeadsKV: 8, HeadDim: 128, FF: 8192,
		Context: 131072, RopeBase: 500000, RMSEps: 1e-5, Tied: true,
		Llama3: &Llama3Rope{Factor: 32, LowFreqFactor: 1, HighFreqFactor: 4, OrigContext: 8192},
	},
	"llama3.1:8b": {
		Arch: Llama, Vocab: 128256, Embd: 4096, Layers: 32, Heads: 32, HeadsKV: 8, HeadDim: 128, FF: 14336,
		Context: 131072, RopeBase: 500000, RMSEps: 1e-5,
		Llama3: &Llama3Rope{Factor: 8, LowFreqFactor: 1, HighFreqFactor: 4, OrigContext: 8192},
	},
	// Qwen2.5: q/k/v biases, no q/k norm, NeoX rope.
	"qwen2.5:0.5b": {
		Arch: Qwen2, Vocab: 151936, Embd: 896, Layers: 24, Heads: 14, HeadsKV: 2, HeadDim: 64, FF: 4864,
		Context: 32768, RopeBase: 1e6, RMSEps: 1e-6, Tied: true,
	},
	"qwen2.5:1.5b": {
		Arch: Qwen2, Vocab: 151936, Embd: 1536, Layers: 28, Heads: 12, HeadsKV: 2, HeadDim: 128, FF: 8960,
		Context: 32768, RopeBase: 1e6, RMSEps: 1e-6, Tied: true,
	},
	"qwen2.5:7b": {
		Arch: Qwen2, Vocab: 152064, Embd: 3584, Layers: 28, Heads: 28, HeadsKV: 4, HeadDim: 128, FF: 18944,
		Context: 32768, RopeBase: 1e6, RMSEps: 1e-6,
	},
	"qwen3:0.6b": {
		Arch: Qwen3, Vocab: 151936, Embd: 1024, Layers: 28, Heads: 16, HeadsKV: 8, HeadDim: 128, FF: 3072,
		Context: 40960, RopeBase: 1e6, RMSEps: 1e-6, Tied: true,
	},
	"qwen3:1.7b": {
		Arch: Qwen3, Vocab: 151936, Embd: 2048, Layers: 28, Heads: 16, HeadsKV: 8, HeadDim: 128, FF: 6144,
		Context: 40960, RopeBase: 1e6, RMSEps: 1e-6, Tied: true,
	},
	"qwen3:8b": {
		Arch: Qwen3, Vocab: 151936, Embd: 4096, Layers: 36, Heads: 32, HeadsKV: 8, HeadDim: 128, FF: 12288,
		Context: 40960, RopeBase: 1e6, RMSEps: 1e-6,
	},
	"qwen3:30b-a3b": {
		Arch: Qwen3MoE, Vocab: 151936, Embd: 2048, Layers: 48, Heads: 32, HeadsKV: 4, HeadDim: 128, FF: 6144,
		Experts: 128, ExpertsUsed: 8, ExpertFF: 768,
		Context: 40960, RopeBase: 1e6, RMSEps: 1e-6,
	},
	// OLMoE-1B-7B-0924: its experts are feed_forward_length wide.
	"olmoe": {
		Arch: OLMoE, Vocab: 50304, Embd: 2048, Layers: 16, Heads: 16, HeadsKV: 16, HeadDim: 128, FF: 1024,
		Experts: 64, ExpertsUsed: 8, ExpertFF: 1024,
		Context: 4096, RopeBase: 10000, RMSEps: 1e-5,
	},
	"deepseek-v2-lite": {
		Arch: DeepSeek2, Vocab: 102400, Embd: 2048, Layers: 27, Heads: 16, FF: 10944,
		QLoRA: 0, KVLoRA: 512, QKNope: 128, QKRope: 64, VHead: 128,
		Experts: 64, ExpertsUsed: 6, ExpertFF: 1408, Shared: 2, LeadingDense: 1,
		Gating: GatingSoftmax, RoutedScale: 1.0, Groups: 1,
		Context: 163840, RopeBase: 10000, RMSEps: 1e-6,
		Yarn: &Yarn{Factor: 40, OrigContext: 4096, BetaFast: 32, BetaSlow: 1, MscaleAllDim: 0.707},
	},
	// GLM-4.7-Flash ships as deepseek2: MLA, sigmoid routing with a
	// selection bias, one shared expert, one leading dense block. Its
	// multi-token-prediction block is left out, as llama.cpp's converter
	// leaves it out by default.
	"glm-4.7-flash": {
		Arch: DeepSeek2, Vocab: 154880, Embd: 2048, Layers: 47, Heads: 20, FF: 10240,
		QLoRA: 768, KVLoRA: 512, QKNope: 192, QKRope: 64, VHead: 256,
		Experts: 64, ExpertsUsed: 4, ExpertFF: 1536, Shared: 1, LeadingDense: 1,
		Gating: GatingSigmoid, ProbsBias: true, NormTopK: true, RoutedScale: 1.8, Groups: 1,
		Context: 202752, RopeBase: 1e6, RMSEps: 1e-5,
	},
	// Youtu-LLM-2B: dense MLA. Its config does not spell out rope_theta
	// in a form we could confirm; 1.6e6 stands in (it changes no shape).
	"youtu-llm:2b": {
		Arch: Youtu, Vocab: 128256, Embd: 2048, Layers: 32, Heads: 16, FF: 6144, LeadingDense: 32,
		QLoRA: 1536, KVLoRA: 512, QKNope: 128, QKRope: 64, VHead: 128,
		Context: 131072, RopeBase: 1.6e6, RMSEps: 1e-6, Tied: true,
	},
}

// tiny shapes: a few MB, every dimension a multiple of 32 (most of 256) so
// every block type applies, with a few rows that force llama.cpp's
// fallbacks. Vocab 0 means: whatever the tokenizer has.
func tiny(a Arch) (Config, bool) {
	switch a {
	case Llama:
		return Config{Arch: Llama, Embd: 256, Layers: 2, Heads: 4, HeadsKV: 2, HeadDim: 64, FF: 512,
			Context: 512, RopeBase: 500000, RMSEps: 1e-5,
			Llama3: &Llama3Rope{Factor: 8, LowFreqFactor: 1, HighFreqFactor: 4, OrigContext: 256}}, true
	case Qwen2:
		return Config{Arch: Qwen2, Embd: 256, Layers: 2, Heads: 4, HeadsKV: 2, HeadDim: 64, FF: 512,
			Context: 512, RopeBase: 1e6, RMSEps: 1e-6}, true
	case Qwen3:
		return Config{Arch: Qwen3, Embd: 256, Layers: 2, Heads: 4, HeadsKV: 2, HeadDim: 64, FF: 512,
			Context: 512, RopeBase: 1e6, RMSEps: 1e-6, Tied: true}, true
	case Qwen3MoE:
		return Config{Arch: Qwen3MoE, Embd: 256, Layers: 2, Heads: 4, HeadsKV: 2, HeadDim: 64, FF: 512,
			Experts: 8, ExpertsUsed: 2, ExpertFF: 256, Context: 512, RopeBase: 1e6, RMSEps: 1e-6}, true
	case OLMoE:
		return Config{Arch: OLMoE, Embd: 256, Layers: 2, Heads: 4, HeadsKV: 4, HeadDim: 64, FF: 256,
			Experts: 16, ExpertsUsed: 4, ExpertFF: 256, Context: 512, RopeBase: 10000, RMSEps: 1e-5}, true
	case DeepSeek2:
		return Config{Arch: DeepSeek2, Embd: 256, Layers: 3, Heads: 4, FF: 512,
			QLoRA: 256, KVLoRA: 256, QKNope: 64, QKRope: 32, VHead: 64,
			Experts: 8, ExpertsUsed: 2, ExpertFF: 256, Shared: 1, LeadingDense: 1,
			Gating: GatingSoftmax, RoutedScale: 1.0, Groups: 1,
			Context: 512, RopeBase: 10000, RMSEps: 1e-6}, true
	case Youtu:
		return Config{Arch: Youtu, Embd: 256, Layers: 2, Heads: 4, FF: 512, LeadingDense: 2,
			QLoRA: 256, KVLoRA: 256, QKNope: 64, QKRope: 32, VHead: 64,
			Context: 512, RopeBase: 1.6e6, RMSEps: 1e-6, Tied: true}, true
	}
	return Config{}, false
}

// deepseek2 variants of the tiny shape, each implying deepseek2.
var tinyVariants = map[string]func(c *Config){
	// no q_lora_rank (plain attn_q) and YaRN, as DeepSeek-V2-Lite
	"tiny-lite": func(c *Config) {
		c.QLoRA = 0
		c.Experts, c.ExpertsUsed, c.Shared = 8, 4, 2
		c.Yarn = &Yarn{Factor: 4, OrigContext: 128, BetaFast: 32, BetaSlow: 1, MscaleAllDim: 0.707}
	},
	// GLM-4.7-Flash's routing: sigmoid, selection bias, normalised top-k,
	// routed scaling factor
	"tiny-glm": func(c *Config) {
		c.QLoRA, c.QKNope, c.VHead = 128, 96, 128
		c.Experts, c.ExpertsUsed = 16, 4
		c.Gating, c.ProbsBias, c.NormTopK, c.RoutedScale = GatingSigmoid, true, true, 1.8
	},
	// the older single attn_kv_b (no MLA absorption keys)
	"tiny-kvb": func(c *Config) { c.LegacyKVB = true },
}

// Shapes lists the named shapes: the real presets, then the tiny ones.
func Shapes() []string {
	var names []string
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	names = append(names, "tiny")
	for n := range tinyVariants {
		names = append(names, n)
	}
	sort.Strings(names[len(presets)+1:])
	return names
}

// Preset returns the configuration of a named shape. arch may be empty for
// shapes that imply one; tiny needs it. The returned Config has Vocab 0
// for tiny shapes (the tokenizer decides).
func Preset(shape string, arch Arch) (Config, error) {
	shape = strings.ToLower(shape)
	if c, ok := presets[shape]; ok {
		if arch != "" && arch != c.Arch {
			return Config{}, fmt.Errorf("synth: shape %s is %s, not %s", shape, c.Arch, arch)
		}
		c.Name = shape
		if c.Llama3 != nil {
			l := *c.Llama3
			c.Llama3 = &l
		}
		if c.Yarn != nil {
			y := *c.Yarn
			c.Yarn = &y
		}
		return c, nil
	}
	if v, ok := tinyVariants[shape]; ok {
		if arch != "" && arch != DeepSeek2 {
			return Config{}, fmt.Errorf("synth: shape %s is deepseek2, not %s", shape, arch)
		}
		c, _ := tiny(DeepSeek2)
		v(&c)
		c.Name = shape
		return c, nil
	}
	if shape == "tiny" {
		if arch == "" {
			return Config{}, fmt.Errorf("synth: shape tiny needs an architecture (one of %v)", Archs)
		}
		c, ok := tiny(arch)
		if !ok {
			return Config{}, fmt.Errorf("synth: unknown architecture %q (want one of %v)", arch, Archs)
		}
		c.Name = "tiny-" + string(arch)
		return c, nil
	}
	return Config{}, fmt.Errorf("synth: unknown shape %q (want one of %s)", shape, strings.Join(Shapes(), ", "))
}
