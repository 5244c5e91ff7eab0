package synth

import "fmt"

// Kind says how a tensor's values are made.
type Kind int

const (
	// Matrix: a weight matrix (or a stack of them) with values of standard
	// deviation 1/sqrt(fan_in), fan_in being the row length ggml contracts
	// over, so activations keep their scale through the layers.
	Matrix Kind = iota
	// Router: an MoE router matrix, same scale, kept F32 as llama.cpp keeps it.
	Router
	// Norm: a norm weight, 1 + 0.1*N(0,1).
	Norm
	// Bias: a small additive vector, 0.01*N(0,1) (the expert selection bias).
	Bias
	// ProjBias: a projection's bias, 0.5*N(0,1) (Qwen2's query, key and
	// value biases, large beside the products as in the real models).
	ProjBias
	// RopeFreqs: Llama 3's rope frequency factors, computed, not random.
	RopeFreqs
)

// Tensor is one entry of a model's tensor plan: its GGUF name, its ggml
// dimensions (row length first) and how its values are made.
type Tensor struct {
	Name string
	Dims []uint64
	Kind Kind
}

// Elements is the number of values.
func (t *Tensor) Elements() uint64 {
	n := uint64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

func dims(d ...int) []uint64 {
	out := make([]uint64, len(d))
	for i, v := range d {
		out[i] = uint64(v)
	}
	return out
}

// Plan lists the model's tensors in file order, with the names and shapes
// llama.cpp's loader expects for the architecture.
func (c *Config) Plan() []Tensor {
	var ts []Tensor
	add := func(k Kind, name string, d ...int) { ts = append(ts, Tensor{name, dims(d...), k}) }
	blk := func(i int, s string) string { return fmt.Sprintf("blk.%d.%s.weight", i, s) }
	E := c.Embd

	add(Matrix, "token_embd.weight", E, c.Vocab)
	if c.Llama3 != nil {
		add(RopeFreqs, "rope_freqs.weight", c.HeadDim/2)
	}
	for i := 0; i < c.Layers; i++ {
		add(Norm, blk(i, "attn_norm"), E)
		if c.Arch.mla() {
			c.planMLA(i, add, blk)
		} else {
			q, kv := c.Heads*c.HeadDim, c.HeadsKV*c.HeadDim
			if c.Arch == OLMoE {
				// OLMoE's q/k norms span the whole projection, not one head
				add(Norm, blk(i, "attn_q_norm"), E)
				add(Norm, blk(i, "attn_k_norm"), E)
			} else if c.Arch != Llama && c.Arch != Qwen2 {
				add(Norm, blk(i, "attn_q_norm"), c.HeadDim)
				add(Norm, blk(i, "attn_k_norm"), c.HeadDim)
			}
			add(Matrix, blk(i, "attn_q"), E, q)
			if c.Arch == Qwen2 {
				add(ProjBias, fmt.Sprintf("blk.%d.attn_q.bias", i), q)
			}
			add(Matrix, blk(i, "attn_k"), E, kv)
			if c.Arch == Qwen2 {
				add(ProjBias, fmt.Sprintf("blk.%d.attn_k.bias", i), kv)
			}
			add(Matrix, blk(i, "attn_v"), E, kv)
			if c.Arch == Qwen2 {
				add(ProjBias, fmt.Sprintf("blk.%d.attn_v.bias", i), kv)
			}
			add(Matrix, blk(i, "attn_output"), q, E)
		}
		add(Norm, blk(i, "ffn_norm"), E)
		switch {
		case !c.moeLayer(i):
			add(Matrix, blk(i, "ffn_gate"), E, c.FF)
			add(Matrix, blk(i, "ffn_up"), E, c.FF)
			add(Matrix, blk(i, "ffn_down"), c.FF, E)
		default:
			x, ff := c.Experts, c.ExpertFF
			if c.Arch == OLMoE {
				ff = c.FF
			}
			add(Router, blk(i, "ffn_gate_inp"), E, x)
			if c.ProbsBias {
				ts = append(ts, Tensor{fmt.Sprintf("blk.%d.exp_probs_b.bias", i), dims(x), Bias})
			}
			add(Matrix, blk(i, "ffn_gate_exps"), E, ff, x)
			add(Matrix, blk(i, "ffn_up_exps"), E, ff, x)
			add(Matrix, blk(i, "ffn_down_exps"), ff, E, x)
			if c.Shared > 0 {
				s := ff * c.Shared
				add(Matrix, blk(i, "ffn_gate_shexp"), E, s)
				add(Matrix, blk(i, "ffn_up_shexp"), E, s)
				add(Matrix, blk(i, "ffn_down_shexp"), s, E)
			}
		}
	}
	add(Norm, "output_norm.weight", E)
	if !c.Tied {
		add(Matrix, "output.weight", E, c.Vocab)
	}
	return ts
}

// planMLA adds one block's multi-head latent attention: queries through a
// low-rank bottleneck (or a plain attn_q), one shared compressed KV plus a
// rope key, and the per-head up-projections split into attn_k_b (stored
// transposed, for weight absorption) and attn_v_b, as current converters
// write them.
func (c *Config) planMLA(i int, add func(Kind, string, ...int), blk func(int, string) string) {
	E, H := c.Embd, c.Heads
	qk := c.QKNope + c.QKRope
	if c.QLoRA > 0 {
		add(Norm, blk(i, "attn_q_a_norm"), c.QLoRA)
		add(Matrix, blk(i, "attn_q_a"), E, c.QLoRA)
		add(Matrix, blk(i, "attn_q_b"), c.QLoRA, H*qk)
	} else {
		add(Matrix, blk(i, "attn_q"), E, H*qk)
	}
	add(Matrix, blk(i, "attn_kv_a_mqa"), E, c.KVLoRA+c.QKRope)
	add(Norm, blk(i, "attn_kv_a_norm"), c.KVLoRA)
	if c.LegacyKVB {
		add(Matrix, blk(i, "attn_kv_b"), c.KVLoRA, H*(c.QKNope+c.VHead))
	} else {
		add(Matrix, blk(i, "attn_k_b"), c.QKNope, c.KVLoRA, H)
		add(Matrix, blk(i, "attn_v_b"), c.KVLoRA, c.VHead, H)
	}
	add(Matrix, blk(i, "attn_output"), H*c.VHead, E)
}

// Params counts the model's parameters: all of them, and those of the
// vocabulary-sized matrices, the token embedding and an untied output head
// (what "non-embedding parameters" leaves out).
func (c *Config) Params() (total, embedding uint64) {
	for _, t := range c.Plan() {
		total += t.Elements()
		if t.Name == "token_embd.weight" || t.Name == "output.weight" {
			embedding += t.Elements()
		}
	}
	return total, embedding
}
