package registry

import (
	"sort"
	"strings"
)

// Model is one registry entry: a short name and the GGUF file it stands for.
type Model struct {
	Name string // what users type: family:size[-quant]
	URL  string // where the GGUF file is downloaded from
	// Size in bytes and SHA-256 (lower-case hex) of the file, where known.
	// Zero and empty mean unknown: they are filled in only from a file that
	// was actually measured, because a wrong value would reject a good
	// download after hours of transfer.
	Size   int64
	SHA256 string
	About  string // one line for `ember ls`
}

const hf = "https://huggingface.co/"

// models is the registry. The plain name is the default quantization of a
// model; a suffix (-q4, -q8, -f16, -q4_0) names another file of the same
// repository. URLs point at resolve/main of well-known GGUF repositories:
// the model makers' own where they publish GGUFs, bartowski or unsloth
// otherwise.
var models = []Model{
	{Name: "stories260k", URL: hf + "ggml-org/models/resolve/main/tinyllamas/stories260K.gguf",
		Size: 1185376, SHA256: "270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d",
		About: "TinyStories 260K, llama2 + SentencePiece (instant demo)"},
	{Name: "stories15m", URL: hf + "ggml-org/models/resolve/main/tinyllamas/stories15M-q4_0.gguf",
		About: "TinyStories 15M Q4_0 (quick demo)"},

	{Name: "llama3.2:1b", URL: hf + "bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q6_K.gguf",
		About: "Llama 3.2 1B Instruct Q6_K"},
	{Name: "llama3.2:1b-q4", URL: hf + "bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf",
		About: "Llama 3.2 1B Instruct Q4_K_M"},
	{Name: "llama3.2:1b-q8", URL: hf + "bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q8_0.gguf",
		About: "Llama 3.2 1B Instruct Q8_0"},
	{Name: "llama3.2:3b", URL: hf + "bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/main/Llama-3.2-3B-Instruct-Q6_K.gguf",
		About: "Llama 3.2 3B Instruct Q6_K"},
	{Name: "llama3.2:3b-q4", URL: hf + "bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/main/Llama-3.2-3B-Instruct-Q4_K_M.gguf",
		About: "Llama 3.2 3B Instruct Q4_K_M"},
	{Name: "llama3.2:3b-f16", URL: hf + "bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/main/Llama-3.2-3B-Instruct-f16.gguf",
		About: "Llama 3.2 3B Instruct F16"},
	{Name: "llama3.1:8b", URL: hf + "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF/resolve/main/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf",
		About: "Llama 3.1 8B Instruct Q4_K_M"},
	{Name: "llama3.1:8b-q8", URL: hf + "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF/resolve/main/Meta-Llama-3.1-8B-Instruct-Q8_0.gguf",
		About: "Llama 3.1 8B Instruct Q8_0"},

	{Name: "qwen2.5:0.5b", URL: hf + "Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q8_0.gguf",
		About: "Qwen2.5 0.5B Instruct Q8_0 (q/k/v biases)"},
	{Name: "qwen2.5:0.5b-q4", URL: hf + "Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf",
		About: "Qwen2.5 0.5B Instruct Q4_K_M"},
	{Name: "qwen2.5:1.5b", URL: hf + "Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf",
		About: "Qwen2.5 1.5B Instruct Q4_K_M"},
	{Name: "qwen2.5:1.5b-q8", URL: hf + "Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q8_0.gguf",
		About: "Qwen2.5 1.5B Instruct Q8_0"},

	{Name: "qwen3:0.6b", URL: hf + "Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf",
		About: "Qwen3 0.6B Q8_0"},
	{Name: "qwen3:1.7b", URL: hf + "unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf",
		About: "Qwen3 1.7B Q4_K_M"},
	{Name: "qwen3:1.7b-q8", URL: hf + "Qwen/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q8_0.gguf",
		About: "Qwen3 1.7B Q8_0"},
	{Name: "qwen3:8b", URL: hf + "Qwen/Qwen3-8B-GGUF/resolve/main/Qwen3-8B-Q4_K_M.gguf",
		About: "Qwen3 8B Q4_K_M"},
	{Name: "qwen3:8b-q8", URL: hf + "Qwen/Qwen3-8B-GGUF/resolve/main/Qwen3-8B-Q8_0.gguf",
		About: "Qwen3 8B Q8_0"},
	{Name: "qwen3:30b-a3b", URL: hf + "Qwen/Qwen3-30B-A3B-GGUF/resolve/main/Qwen3-30B-A3B-Q4_K_M.gguf",
		About: "Qwen3 30B-A3B (MoE) Q4_K_M"},

	{Name: "olmoe", URL: hf + "allenai/OLMoE-1B-7B-0924-Instruct-GGUF/resolve/main/olmoe-1b-7b-0924-instruct-q4_k_m.gguf",
		About: "OLMoE 1B-7B Instruct (MoE) Q4_K_M"},
	{Name: "deepseek-v2-lite", URL: hf + "bartowski/DeepSeek-V2-Lite-Chat-GGUF/resolve/main/DeepSeek-V2-Lite-Chat-Q4_K_M.gguf",
		About: "DeepSeek-V2-Lite Chat (MLA + MoE) Q4_K_M"},
	{Name: "glm-4.7-flash", URL: hf + "unsloth/GLM-4.7-Flash-GGUF/resolve/main/GLM-4.7-Flash-Q4_K_M.gguf",
		About: "GLM-4.7-Flash (deepseek2 MLA + MoE) Q4_K_M"},
	{Name: "glm-4.7-flash-q4_0", URL: hf + "unsloth/GLM-4.7-Flash-GGUF/resolve/main/GLM-4.7-Flash-Q4_0.gguf",
		About: "GLM-4.7-Flash Q4_0"},
	{Name: "youtu-llm:2b", URL: hf + "tencent/Youtu-LLM-2B-GGUF/resolve/main/Youtu-LLM-2B-Q8_0.gguf",
		About: "Youtu-LLM 2B (dense MLA) Q8_0"},
}

// Models returns the registry, sorted by name.
func Models() []Model {
	out := append([]Model(nil), models...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup finds a registry name, ignoring case (users type Qwen3:8B too).
func Lookup(name string) (Model, bool) {
	for _, m := range models {
		if strings.EqualFold(m.Name, name) {
			return m, true
		}
	}
	return Model{}, false
}

// ByURL finds the registry entry of a URL, so a model given by URL is still
// checked against the size and hash the registry knows.
func ByURL(url string) (Model, bool) {
	for _, m := range models {
		if m.URL == url {
			return m, true
		}
	}
	return Model{}, false
}

// Names lists the registry names, sorted, for error messages.
func Names() []string {
	var out []string
	for _, m := range Models() {
		out = append(out, m.Name)
	}
	return out
}
