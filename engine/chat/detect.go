package chat

import "strings"

// presetFromTemplate picks the preset whose format a template writes, by
// the marker strings llama.cpp's llm_chat_detect_template looks for. It is
// used when a template exists but cannot be compiled or rendered.
func presetFromTemplate(src string) (string, bool) {
	has := func(s string) bool { return strings.Contains(src, s) }
	switch {
	case has("<|im_start|>"):
		return PresetQwen2, true
	case has("[gMASK]<sop>"):
		return PresetGLM4, true
	case has("<|start_header_id|>") && has("<|end_header_id|>"):
		return PresetLlama3, true
	case has("'Assistant: ' + message['content'] + eos_token"):
		return PresetDeepSeekLLM, true
	case has("<|User|>") && has("<|Assistant|>"):
		return PresetYoutu, true
	case has("<|user|>") && has("<|assistant|>") && !has("<|end|>"):
		return PresetOLMo, true
	}
	return "", false
}

// presetFromModel picks a preset from general.architecture,
// tokenizer.ggml.pre and tokenizer.ggml.model when a file has no template.
// The pre-tokenizer names the model family more precisely than the
// architecture: GLM-4.7-Flash and Youtu-LLM both ship as deepseek2.
func presetFromModel(arch, pre, tokModel string) string {
	switch pre {
	case "llama-bpe", "llama3", "llama-v3":
		return PresetLlama3
	case "qwen2", "qwen35", "qwen3":
		return PresetQwen2
	case "glm4", "chatglm-bpe":
		return PresetGLM4
	case "deepseek-llm":
		return PresetDeepSeekLLM
	case "youtu":
		return PresetYoutu
	case "olmo", "olmo2":
		return PresetOLMo
	}
	switch arch {
	case "qwen2", "qwen3", "qwen3moe", "qwen2moe":
		return PresetQwen2
	case "glm4", "glm4moe", "chatglm":
		return PresetGLM4
	case "olmo", "olmo2", "olmoe":
		return PresetOLMo
	case "llama":
		if tokModel == "gpt2" {
			return PresetLlama3
		}
	}
	// SentencePiece vocabularies without a template are base models
	// (llama2-era and TinyStories): no chat format is known to them.
	if tokModel == "llama" || tokModel == "" {
		return PresetText
	}
	// llama.cpp falls back to ChatML when nothing else matches.
	return PresetQwen2
}
