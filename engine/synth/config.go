package synth

import (
	"fmt"
)

// Arch is a model family this package can lay out. Youtu is written as
// general.architecture deepseek2 (MLA attention, every block dense), the
// way llama.cpp converts Youtu-LLM.
type Arch string

const (
	Llama     Arch = "llama"
	Qwen2     Arch = "qwen2"
	Qwen3     Arch = "qwen3"
	Qwen3MoE  Arch = "qwen3moe"
	OLMoE     Arch = "olmoe"
	DeepSeek2 Arch = "deepseek2"
	Youtu     Arch = "youtu"
)

// Archs lists the families in a stable order.
var Archs = []Arch{Llama, Qwen2, Qwen3, Qwen3MoE, OLMoE, DeepSeek2, Youtu}

// GGUFArch is the general.architecture value the family is stored as.
func (a Arch) GGUFArch() string {
	if a == Youtu {
		return string(DeepSeek2)
	}
	return string(a)
}

func (a Arch) mla() bool { return a == DeepSeek2 || a == Youtu }

// Gating functions of MoE routers (llama.cpp's expert_gating_func values).
const (
	GatingSoftmax = 1
	GatingSigmoid = 2
)

// Llama3Rope is Llama 3.x's frequency scaling (rope_scaling type llama3),
// stored as the rope_freqs tensor.
type Llama3Rope struct {
	Factor, LowFreqFactor, HighFreqFactor float64
	OrigContext                           int
}

// Yarn is YaRN context extension as DeepSeek-V2 uses it.
type Yarn struct {
	Factor             float32
	OrigContext        int
	BetaFast, BetaSlow float32
	MscaleAllDim       float32 // stored as yarn_log_multiplier = 0.1 * this
}

// Config is the shape of a model: every hyperparameter the tensor plan and
// metadata depend on.
type Config struct {
	Name    string // preset name, or "" for a custom shape
	Arch    Arch
	Vocab   int
	Embd    int
	Layers  int
	Heads   int
	HeadsKV int // llama/qwen (MLA stores 1, as the converters do)
	HeadDim int // llama/qwen per-head size
	FF      int // dense FFN width
	Context int

	RopeBase float32
	RMSEps   float32
	Tied     bool // no output.weight: the head reuses token_embd
	Llama3   *Llama3Rope
	Yarn     *Yarn

	// Mixture of experts
	Experts      int
	ExpertsUsed  int
	ExpertFF     int // width of one expert (expert_feed_forward_length)
	Shared       int // shared experts (deepseek2)
	LeadingDense int // deepseek2: blocks before the first MoE block
	Gating       int // expert_gating_func, 0 to leave it out
	ProbsBias    bool
	NormTopK     bool
	RoutedScale  float32 // expert_weights_scale, 0 to leave it out
	Groups       int     // expert_group_count / expert_group_used_count, 0 to leave out

	// Multi-head latent attention (deepseek2, youtu)
	QLoRA     int // 0: a plain attn_q instead of attn_q_a/attn_q_b
	KVLoRA    int
	QKNope    int
	QKRope    int
	VHead     int
	LegacyKVB bool // one attn_kv_b instead of the split attn_k_b/attn_v_b
}

func (c *Config) moeLayer(i int) bool {
	switch c.Arch {
	case Qwen3MoE, OLMoE:
		return true
	case DeepSeek2:
		return i >= c.LeadingDense
	}
	return false
}

// Validate checks that the shape is one llama.cpp can load.
func (c *Config) Validate() error {
	pos := func(name string, v int) error {
		if v <= 0 {
			return fmt.Errorf("synth: %s must be positive, got %d", name, v)
		}
		return nil
	}
	for _, f := range []struct {
		n string
		v int
	}{{"vocab", c.Vocab}, {"embedding length", c.Embd}, {"layers", c.Layers}, {"heads", c.Heads}, {"context", c.Context}} {
		if err := pos(f.n, f.v); err != nil {
			return err
		}
	}
	known := false
	for _, a := range Archs {
		known = known || a == c.Arch
	}
	if !known {
		return fmt.Errorf("synth: unknown architecture %q", c.Arch)
	}
	if c.Arch.mla() {
		for _, f := range []struct {
			n string
			v int
		}{{"kv_lora_rank", c.KVLoRA}, {"qk_nope_head_dim", c.QKNope}, {"qk_rope_head_dim", c.QKRope}, {"v_head_dim", c.VHead}} {
			if err := pos(f.n, f.v); err != nil {
				return err
			}
		}
		if c.QKRope%2 != 0 {
			return fmt.Errorf("synth: qk_rope_head_dim %d must be even", c.QKRope)
		}
	} else {
		if err := pos("head dim", c.HeadDim); err != nil {
			return err
		}
		if c.HeadDim%2 != 0 {
			return fmt.Errorf("synth: head dim %d must be even for RoPE", c.HeadDim)
		}
		if err := pos("kv heads", c.HeadsKV); err != nil {
			return err
		}
		if c.Heads%c.HeadsKV != 0 {
			return fmt.Errorf("synth: %d heads do not divide into %d kv heads", c.Heads, c.HeadsKV)
		}
	}
	moe := c.Arch == Qwen3MoE || c.Arch == OLMoE || c.Arch == DeepSeek2 && c.LeadingDense < c.Layers
	if moe {
		if c.Experts < 2 || c.ExpertsUsed < 1 || c.ExpertsUsed >= c.Experts {
			return fmt.Errorf("synth: MoE needs more experts (%d) than experts per token (%d), at least one used", c.Experts, c.ExpertsUsed)
		}
		if err := pos("expert FFN width", c.ExpertFF); err != nil {
			return err
		}
		if c.Arch == DeepSeek2 && c.Shared < 1 {
			return fmt.Errorf("synth: deepseek2 MoE blocks need at least one shared expert")
		}
	}
	if c.Arch == Llama || c.Arch == Qwen2 || c.Arch == Qwen3 || c.Arch.mla() && c.LeadingDense > 0 || c.Arch == Youtu {
		if err := pos("FFN width", c.FF); err != nil {
			return err
		}
	}
	if c.Arch == OLMoE && (c.Heads*c.HeadDim != c.Embd || c.HeadsKV != c.Heads) {
		return fmt.Errorf("synth: olmoe needs heads*head_dim = embedding length and as many kv heads as heads")
	}
	if c.Arch == Youtu && c.Experts != 0 {
		return fmt.Errorf("synth: youtu is dense; use deepseek2 for MLA with experts")
	}
	return nil
}
