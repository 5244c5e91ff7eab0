package oracle

import (
	"fmt"
	"slices"
)

// The models and prompts the llama.cpp parity tests (engine/model) run, in
// one list, so that bench/parity measures llama.cpp's own spread, the
// bound of those tests where llama.cpp's AVX-512 build does not load, on
// the very cases the tests hold ember to.

// TinyModel is a tiny synthetic model of a real layout: the arguments of
// engine/synth's WriteFile (which imports this package in its tests, so
// the architecture is a plain string here).
type TinyModel struct {
	Name  string // family/type, as the tests name it
	Shape string
	Arch  string
	Type  string
	Seed  uint64
}

// ParityCase is a model and a prompt (token ids) run through ember and
// llama.cpp. Quick cases are the representative subset that `make test`
// runs; `make parity` (EMBER_PARITY=all) runs them all.
type ParityCase struct {
	Group  string // "dense", or "moe-mla" for the mixture-of-experts and latent-attention families
	Model  TinyModel
	Prompt []int32
	Quick  bool
}

// Name is the case's name as a subtest: family/type/prompt-of-N.
func (c ParityCase) Name() string {
	return fmt.Sprintf("%s/prompt-of-%d", c.Model.Name, len(c.Prompt))
}

// DenseTypes are the weight types of the dense models: every type with a
// dot kernel, and the Q4_K_M mix llama.cpp users download most.
var DenseTypes = []string{"F32", "F16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q4_K", "Q5_K", "Q6_K", "Q4_K_M"}

// MoEMLATypes are the weight types of the mixture-of-experts and
// latent-attention models.
var MoEMLATypes = []string{"F32", "Q8_0", "Q4_0", "Q4_K", "Q6_K"}

// moeMLAShapes are the tiny layouts of the mixture-of-experts and
// latent-attention families, each exercising a different part of them.
var moeMLAShapes = []struct{ name, shape, arch string }{
	{"qwen3moe", "tiny", "qwen3moe"},    // per-head q/k norm, softmax, renormalised top-k
	{"olmoe", "tiny", "olmoe"},          // full-projection q/k norm, softmax, raw top-k
	{"deepseek2", "tiny", "deepseek2"},  // q low-rank path, softmax, shared expert, a dense lead block
	{"deepseek2-lite", "tiny-lite", ""}, // plain attn_q, YaRN with mscale, two shared experts
	{"glm-4.7-flash", "tiny-glm", ""},   // sigmoid, selection bias, norm, routed scale 1.8
	{"youtu", "tiny", "youtu"},          // dense MLA, tied output
}

// quickTypes picks each family's weight types in the quick subset:
// together they hold every dense type once, and each mixture-of-experts
// or latent-attention family in one type, of every kind (float, 8-bit,
// legacy 4-bit, K-quant) across them. Each gives llama.cpp's greedy run
// all 64 steps (some others end at a few steps with an end token).
var quickTypes = map[string][]string{
	"llama":          {"F32", "Q4_0", "Q4_1", "Q5_0", "Q4_K", "Q4_K_M"},
	"qwen3":          {"F16", "Q8_0", "Q5_1", "Q5_K", "Q6_K"},
	"qwen3moe":       {"F32"},
	"olmoe":          {"Q6_K"},
	"deepseek2":      {"Q8_0"},
	"deepseek2-lite": {"Q4_0"},
	"glm-4.7-flash":  {"Q4_K"},
	"youtu":          {"Q4_K"},
}

// ParityCases are the tiny models' cases: llama and qwen3 in every dense
// type on prompts of 3 and 9 ids (the quick subset on the first), the
// other families in their types on a prompt of 6. The ids are below 256
// (the byte tokens and merges every tiny vocabulary has), drawn from
// math/rand's sources 11 and 7 when the tests were written; the seeds and
// prompts are those the tests have held ember to since, any others would do.
func ParityCases() []ParityCase {
	var out []ParityCase
	for p, prompt := range [][]int32{{152, 23, 53}, {100, 102, 25, 149, 87, 200, 142, 101, 177}} {
		for i, arch := range []string{"llama", "qwen3"} {
			for j, typ := range DenseTypes {
				m := TinyModel{Name: arch + "/" + typ, Shape: "tiny", Arch: arch, Type: typ, Seed: uint64(500 + 20*i + j)}
				out = append(out, ParityCase{Group: "dense", Model: m, Prompt: prompt, Quick: p == 0 && slices.Contains(quickTypes[arch], typ)})
			}
		}
	}
	prompt := []int32{30, 238, 173, 191, 68, 244}
	for i, s := range moeMLAShapes {
		for j, typ := range MoEMLATypes {
			m := TinyModel{Name: s.name + "/" + typ, Shape: s.shape, Arch: s.arch, Type: typ, Seed: uint64(100 + 10*i + j)}
			out = append(out, ParityCase{Group: "moe-mla", Model: m, Prompt: prompt, Quick: slices.Contains(quickTypes[s.name], typ)})
		}
	}
	return out
}

// StoriesPrompts are the texts stories260K (SharedDir's models), a real
// trained model, is run on; the first is the quick subset's.
var StoriesPrompts = []string{"Once upon a time", "The little dog", "Lily and Tom went to the", "One day"}
