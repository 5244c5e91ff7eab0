package gputest

import "github.com/emberllm/ember/engine/synth"

// ParityModel is one tiny synthetic model a backend's model parity test
// decodes: a shape, an architecture where the shape does not imply one, a
// weight type, and the seed of its random weights.
type ParityModel struct {
	Shape string
	Arch  synth.Arch
	Type  string
	Seed  uint64
}

// Name is the model's name in subtests and file names.
func (m ParityModel) Name() string { return m.Shape + "-" + string(m.Arch) + "-" + m.Type }

// ParityModels is every architecture's tiny model in a weight type of each
// family (legacy blocks, K-quants, 8-bit, 16-bit), as the backends' model
// parity tests run them; each test picks the ones it runs in make test.
var ParityModels = []ParityModel{
	{"tiny", synth.Llama, "Q4_0", 40},
	{"tiny", synth.Qwen3, "Q8_0", 41},
	{"tiny", synth.Qwen2, "Q5_1", 42},
	{"tiny", synth.Qwen3MoE, "Q4_K", 43},
	{"tiny", synth.OLMoE, "Q6_K", 44},
	{"tiny", synth.DeepSeek2, "Q8_0", 45},
	{"tiny-glm", "", "Q4_0", 46},
	{"tiny-lite", "", "Q5_K", 47},
	{"tiny", synth.Youtu, "F16", 48},
}
