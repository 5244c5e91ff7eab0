package synth

import (
	"fmt"
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quantize"
)

// Published parameter counts of the real models (model cards / papers).
// total includes the token embedding and the output head; non-embedding
// leaves both out, as Qwen's model cards count it.
var published = map[string]struct {
	total, nonEmbedding float64
}{
	"stories15m":       {15e6, 0},        // llama2.c stories15M, classifier tied to the embedding
	"llama3.2:1b":      {1.24e9, 0},      // 1.24B
	"llama3.2:3b":      {3.21e9, 0},      // 3.21B
	"llama3.1:8b":      {8.03e9, 0},      // 8.03B
	"qwen2.5:0.5b":     {0.49e9, 0.36e9}, // 0.49B, 0.36B non-embedding (tied)
	"qwen2.5:1.5b":     {1.54e9, 1.31e9}, // 1.54B, 1.31B non-embedding (tied)
	"qwen2.5:7b":       {7.61e9, 6.53e9}, // 7.61B, 6.53B non-embedding
	"qwen3:0.6b":       {0.6e9, 0.44e9},  // 0.6B, 0.44B non-embedding (tied)
	"qwen3:1.7b":       {1.7e9, 1.4e9},   // 1.7B, 1.4B non-embedding (tied)
	"qwen3:8b":         {8.2e9, 6.95e9},  // 8.2B, 6.95B non-embedding
	"qwen3:30b-a3b":    {30.5e9, 0},      // 30.5B
	"olmoe":            {6.9e9, 0},       // OLMoE-1B-7B: 6.9B
	"deepseek-v2-lite": {15.7e9, 0},      // 15.7B
	"glm-4.7-flash":    {30e9, 0},        // "30B-A3B" (the MTP block, ~0.6B, is not written)
	"youtu-llm:2b":     {1.96e9, 0},      // 1.96B
}

func TestPresetParamCounts(t *testing.T) {
	for _, name := range Shapes() {
		c, err := Preset(name, "")
		if name == "tiny" {
			if err == nil {
				t.Errorf("tiny without an architecture was accepted")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if c.Vocab == 0 {
			continue // tiny variants: the tokenizer sets the vocabulary
		}
		want, ok := published[name]
		if !ok {
			t.Errorf("%s: no published parameter count to check against", name)
			continue
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		total, embd := c.Params()
		if d := math.Abs(float64(total)-want.total) / want.total; d > 0.02 {
			t.Errorf("%s: %d parameters, published %.3g (%.1f%% off)", name, total, want.total, 100*d)
		}
		if want.nonEmbedding > 0 {
			ne := float64(total - embd)
			if d := math.Abs(ne-want.nonEmbedding) / want.nonEmbedding; d > 0.02 {
				t.Errorf("%s: %.0f non-embedding parameters, published %.3g", name, ne, want.nonEmbedding)
			}
		}
	}
}

// Shapes read off the published config.json files, written out here by
// hand rather than derived from the Config fields.
var presetShapes = map[string]map[string][]uint64{
	"stories15m": {
		"token_embd.weight": {288, 32000}, "blk.5.attn_q.weight": {288, 288}, "blk.0.ffn_up.weight": {288, 768},
		"blk.0.ffn_down.weight": {768, 288}, "output.weight": nil,
	},
	"llama3.2:1b": {
		"token_embd.weight": {2048, 128256}, "rope_freqs.weight": {32}, "blk.15.attn_k.weight": {2048, 512},
		"blk.0.attn_output.weight": {2048, 2048}, "blk.0.ffn_gate.weight": {2048, 8192}, "output.weight": nil,
	},
	"llama3.2:3b": {
		"rope_freqs.weight": {64}, "blk.27.attn_q.weight": {3072, 3072}, "blk.0.attn_v.weight": {3072, 1024}, "output.weight": nil,
	},
	"llama3.1:8b": {
		"rope_freqs.weight": {64}, "blk.31.attn_k.weight": {4096, 1024}, "blk.0.ffn_down.weight": {14336, 4096},
		"output.weight": {4096, 128256},
	},
	"qwen3:0.6b": {
		"token_embd.weight": {1024, 151936}, "blk.0.attn_q.weight": {1024, 2048}, "blk.0.attn_k.weight": {1024, 1024},
		"blk.27.attn_q_norm.weight": {128}, "blk.0.attn_output.weight": {2048, 1024}, "output.weight": nil,
	},
	"qwen3:1.7b": {"blk.0.attn_q.weight": {2048, 2048}, "blk.0.ffn_up.weight": {2048, 6144}, "output.weight": nil},
	"qwen3:8b": {
		"blk.35.attn_q.weight": {4096, 4096}, "blk.0.attn_v.weight": {4096, 1024}, "output.weight": {4096, 151936},
	},
	"qwen3:30b-a3b": {
		"blk.0.attn_q.weight": {2048, 4096}, "blk.0.attn_k.weight": {2048, 512}, "blk.47.ffn_gate_inp.weight": {2048, 128},
		"blk.0.ffn_gate_exps.weight": {2048, 768, 128}, "blk.0.ffn_down_exps.weight": {768, 2048, 128},
		"blk.0.ffn_gate.weight": nil, "output.weight": {2048, 151936},
	},
	"qwen2.5:1.5b": {
		"token_embd.weight": {1536, 151936}, "blk.0.attn_q.weight": {1536, 1536}, "blk.0.attn_q.bias": {1536},
		"blk.27.attn_k.weight": {1536, 256}, "blk.27.attn_k.bias": {256}, "blk.3.attn_v.bias": {256},
		"blk.0.attn_q_norm.weight": nil, "blk.0.ffn_gate.weight": {1536, 8960}, "output.weight": nil,
	},
	"olmoe": {
		"blk.0.attn_q_norm.weight": {2048}, "blk.0.attn_k_norm.weight": {2048}, "blk.15.ffn_up_exps.weight": {2048, 1024, 64},
		"blk.0.ffn_gate_inp.weight": {2048, 64}, "output.weight": {2048, 50304},
	},
	"deepseek-v2-lite": {
		"token_embd.weight": {2048, 102400}, "blk.0.ffn_gate.weight": {2048, 10944}, "blk.0.ffn_gate_exps.weight": nil,
		"blk.1.ffn_down_exps.weight": {1408, 2048, 64}, "blk.26.ffn_up_shexp.weight": {2048, 2816},
		"blk.5.attn_q.weight": {2048, 3072}, "blk.5.attn_q_a.weight": nil, "blk.5.attn_kv_a_mqa.weight": {2048, 576},
		"blk.5.attn_kv_a_norm.weight": {512}, "blk.5.attn_k_b.weight": {128, 512, 16}, "blk.5.attn_v_b.weight": {512, 128, 16},
		"blk.5.attn_output.weight": {2048, 2048}, "blk.1.exp_probs_b.bias": nil,
	},
	"glm-4.7-flash": {
		"token_embd.weight": {2048, 154880}, "blk.0.ffn_up.weight": {2048, 10240}, "blk.3.attn_q_a.weight": {2048, 768},
		"blk.3.attn_q_a_norm.weight": {768}, "blk.3.attn_q_b.weight": {768, 5120}, "blk.3.attn_k_b.weight": {192, 512, 20},
		"blk.3.attn_v_b.weight": {512, 256, 20}, "blk.3.attn_output.weight": {5120, 2048}, "blk.46.exp_probs_b.bias": {64},
		"blk.46.ffn_gate_exps.weight": {2048, 1536, 64}, "blk.46.ffn_down_shexp.weight": {1536, 2048}, "output.weight": {2048, 154880},
	},
	"youtu-llm:2b": {
		"blk.31.ffn_down.weight": {6144, 2048}, "blk.0.attn_q_b.weight": {1536, 3072}, "blk.0.attn_k_b.weight": {128, 512, 16},
		"blk.0.ffn_gate_inp.weight": nil, "output.weight": nil,
	},
}

func TestPresetPlans(t *testing.T) {
	for name, want := range presetShapes {
		c, err := Preset(name, "")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]uint64{}
		for _, ts := range c.Plan() {
			if _, dup := got[ts.Name]; dup {
				t.Errorf("%s: tensor %s twice", name, ts.Name)
			}
			got[ts.Name] = ts.Dims
		}
		for tn, dims := range want {
			g, ok := got[tn]
			switch {
			case dims == nil && ok:
				t.Errorf("%s: unexpected tensor %s %v", name, tn, g)
			case dims != nil && !ok:
				t.Errorf("%s: missing tensor %s", name, tn)
			case dims != nil && fmt.Sprint(g) != fmt.Sprint(dims):
				t.Errorf("%s: %s is %v, want %v", name, tn, g, dims)
			}
		}
		// every block has its attention, norms and FFN
		for i := 0; i < c.Layers; i++ {
			for _, s := range []string{"attn_norm", "ffn_norm", "attn_output"} {
				if _, ok := got[fmt.Sprintf("blk.%d.%s.weight", i, s)]; !ok {
					t.Errorf("%s: block %d has no %s", name, i, s)
				}
			}
		}
	}
}

// metadata keys as llama.cpp reads them, spot-checked against the
// published configs.
func TestPresetMetadata(t *testing.T) {
	cases := map[string]map[string]any{
		"deepseek-v2-lite": {
			"general.architecture": "deepseek2", "deepseek2.attention.key_length": uint32(576),
			"deepseek2.attention.value_length": uint32(512), "deepseek2.attention.key_length_mla": uint32(192),
			"deepseek2.attention.value_length_mla": uint32(128), "deepseek2.attention.head_count_kv": uint32(1),
			"deepseek2.rope.dimension_count": uint32(64), "deepseek2.expert_shared_count": uint32(2),
			"deepseek2.leading_dense_block_count": uint32(1), "deepseek2.expert_feed_forward_length": uint32(1408),
			"deepseek2.rope.scaling.type": "yarn", "deepseek2.rope.scaling.factor": float32(40),
			"deepseek2.attention.q_lora_rank": nil, "deepseek2.expert_used_count": uint32(6),
		},
		"glm-4.7-flash": {
			"deepseek2.expert_gating_func": uint32(GatingSigmoid), "deepseek2.expert_weights_norm": true,
			"deepseek2.expert_weights_scale": float32(1.8), "deepseek2.attention.q_lora_rank": uint32(768),
			"deepseek2.block_count": uint32(47), "deepseek2.vocab_size": uint32(154880),
		},
		"youtu-llm:2b": {
			"general.architecture": "deepseek2", "deepseek2.leading_dense_block_count": uint32(32),
			"deepseek2.expert_count": nil, "deepseek2.expert_shared_count": uint32(0),
			"deepseek2.expert_feed_forward_length": uint32(6144), "deepseek2.attention.q_lora_rank": uint32(1536),
		},
		"qwen3:30b-a3b": {
			"qwen3moe.expert_count": uint32(128), "qwen3moe.expert_used_count": uint32(8),
			"qwen3moe.expert_feed_forward_length": uint32(768), "qwen3moe.attention.head_count_kv": uint32(4),
			"qwen3moe.attention.key_length": uint32(128),
		},
		"llama3.2:1b": {"llama.rope.freq_base": float32(500000), "llama.attention.head_count_kv": uint32(8), "llama.rope.dimension_count": uint32(64)},
	}
	for name, want := range cases {
		c, _ := Preset(name, "")
		var kvs kvList
		c.metadata(&kvs)
		got := map[string]any{}
		for _, kv := range kvs {
			got[kv.Key] = kv.Value.V
		}
		for k, v := range want {
			g, ok := got[k]
			if v == nil {
				if ok {
					t.Errorf("%s: unexpected key %s = %v", name, k, g)
				}
				continue
			}
			if !ok || g != v {
				t.Errorf("%s: %s = %v (%T), want %v (%T)", name, k, g, g, v, v)
			}
		}
	}
}

// llama.cpp's Q4_K_M gives attn_v and ffn_down Q6_K in the first and last
// eighth of the layers and every third layer between; for a 32-layer
// model that is layers 0-3, 6, 9, ..., 27 and 28-31. The output head is
// Q6_K, the untied embedding stays Q4_K.
func TestQ4KMMix(t *testing.T) {
	c, _ := Preset("llama3.1:8b", "")
	s, err := quantize.ParseScheme("Q4_K_M", false)
	if err != nil {
		t.Fatal(err)
	}
	six := map[int]bool{}
	for _, l := range []int{0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31} {
		six[l] = true
	}
	for _, ts := range Layout(&c, s) {
		want := gguf.Q4_K
		var layer int
		var kind string
		if n, _ := fmt.Sscanf(ts.Name, "blk.%d.%s", &layer, &kind); n == 2 && (kind == "attn_v.weight" || kind == "ffn_down.weight") && six[layer] {
			want = gguf.Q6_K
		}
		switch {
		case ts.Name == "output.weight":
			want = gguf.Q6_K
		case ts.Kind != Matrix:
			want = gguf.F32
		}
		if ts.Type != want {
			t.Errorf("%s: %s, want %s", ts.Name, ts.Type, want)
		}
	}
	// stories15m rows of 288 fit no 256-block: Q4_K falls back to Q5_0,
	// and the tied embedding (the output head) to Q8_0; of 6 layers,
	// ffn_down of layers 2 and 5 get Q6_K
	c, _ = Preset("stories15m", "")
	for _, ts := range Layout(&c, s) {
		want := map[string]gguf.TensorType{
			"token_embd.weight": gguf.Q8_0, "blk.0.attn_q.weight": gguf.Q5_0, "blk.0.ffn_gate.weight": gguf.Q5_0,
			"blk.0.ffn_down.weight": gguf.Q4_K, "blk.2.ffn_down.weight": gguf.Q6_K, "blk.5.ffn_down.weight": gguf.Q6_K, "blk.0.attn_norm.weight": gguf.F32,
		}[ts.Name]
		if want != 0 && ts.Type != want || ts.Name == "token_embd.weight" && ts.Type != want {
			t.Errorf("stories15m %s: %s, want %s", ts.Name, ts.Type, want)
		}
	}
}
