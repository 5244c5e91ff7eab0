package chat

import (
	"fmt"
	"sort"
	"strings"
)

// A preset is a built-in chat format for files without a usable template.
// Turn layouts follow llama.cpp's llm_chat_apply_template where it has the
// format (llama3, chatml, chatglm4, deepseek2); BOS text is written where
// the model's own template writes it, so Render's output has one shape
// whether it came from a template or a preset (see Formatter.TrimBOS).
type preset struct {
	thinking bool // has a reasoning mode, on by default
	render   func(b *strings.Builder, msgs []Message, opts Options, bos, eos string)
}

// Preset names.
const (
	PresetLlama3      = "llama3"
	PresetQwen2       = "qwen2"
	PresetGLM4        = "glm4"
	PresetDeepSeekLLM = "deepseek-llm"
	PresetYoutu       = "youtu"
	PresetOLMo        = "olmo"
	PresetText        = "text"
)

var presets = map[string]preset{
	PresetLlama3:      {render: renderLlama3},
	PresetQwen2:       {render: renderChatML},
	PresetGLM4:        {thinking: true, render: renderGLM4},
	PresetDeepSeekLLM: {render: renderDeepSeekLLM},
	PresetYoutu:       {thinking: true, render: renderYoutu},
	PresetOLMo:        {render: renderOLMo},
	PresetText:        {render: renderText},
}

// PresetNames lists the built-in presets.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func lookupPreset(name string) (preset, error) {
	p, ok := presets[name]
	if !ok {
		return preset{}, fmt.Errorf("chat: unknown preset %q (have %s)", name, strings.Join(PresetNames(), ", "))
	}
	return p, nil
}

// Llama 3: header-wrapped turns, contents trimmed, as the Llama 3.x
// templates and llama.cpp's preset do.
func renderLlama3(b *strings.Builder, msgs []Message, opts Options, bos, _ string) {
	b.WriteString(bos)
	for _, m := range msgs {
		b.WriteString("<|start_header_id|>" + m.Role + "<|end_header_id|>\n\n")
		b.WriteString(strings.TrimSpace(m.Content))
		b.WriteString("<|eot_id|>")
	}
	if opts.AddGenerationPrompt {
		b.WriteString("<|start_header_id|>assistant<|end_header_id|>\n\n")
	}
}

// ChatML (Qwen2 and many others); no BOS.
func renderChatML(b *strings.Builder, msgs []Message, opts Options, _, _ string) {
	for _, m := range msgs {
		b.WriteString("<|im_start|>" + m.Role + "\n" + m.Content + "<|im_end|>\n")
	}
	if opts.AddGenerationPrompt {
		b.WriteString("<|im_start|>assistant\n")
	}
}

// GLM-4: llama.cpp's chatglm4 layout. With thinking on, the generation
// prompt opens the think block; off, it writes the lone "</think>" that
// GLM-4.7's own template uses to say "no reasoning this turn".
func renderGLM4(b *strings.Builder, msgs []Message, opts Options, _, _ string) {
	b.WriteString("[gMASK]<sop>")
	for _, m := range msgs {
		b.WriteString("<|" + m.Role + "|>\n" + m.Content)
	}
	if opts.AddGenerationPrompt {
		b.WriteString("<|assistant|>\n")
		if opts.thinkingOn() {
			b.WriteString("<think>\n")
		} else {
			b.WriteString("</think>")
		}
	}
}

// DeepSeek-LLM / DeepSeek-V2 chat: "User: " / "Assistant: " turns, each
// assistant turn closed by EOS, the generation prompt "Assistant:" with no
// space (the model writes it).
func renderDeepSeekLLM(b *strings.Builder, msgs []Message, opts Options, bos, eos string) {
	if eos == "" {
		eos = "<｜end▁of▁sentence｜>"
	}
	b.WriteString(bos)
	for _, m := range msgs {
		switch m.Role {
		case "system":
			b.WriteString(m.Content + "\n\n")
		case "user":
			b.WriteString("User: " + m.Content + "\n\n")
		case "assistant":
			b.WriteString("Assistant: " + m.Content + eos)
		}
	}
	if opts.AddGenerationPrompt {
		b.WriteString("Assistant:")
	}
}

// Youtu-LLM: DeepSeek-V3-style turns with ASCII-bar tags; the system text
// leads, assistant turns end with EOS, and the generation prompt opens
// "<think>\n" (thinking on) or writes an empty "<think></think>" (off).
func renderYoutu(b *strings.Builder, msgs []Message, opts Options, bos, eos string) {
	b.WriteString(bos)
	for _, m := range msgs {
		switch m.Role {
		case "system":
			b.WriteString(m.Content)
		case "user":
			b.WriteString("<|User|>" + m.Content)
		case "assistant":
			b.WriteString("<|Assistant|>" + m.Content + eos)
		}
	}
	if opts.AddGenerationPrompt {
		b.WriteString("<|Assistant|>")
		if opts.thinkingOn() {
			b.WriteString("<think>\n")
		} else {
			b.WriteString("<think></think>")
		}
	}
}

// OLMo / OLMoE instruct (the Tulu format): "<|role|>\n" turns separated by
// newlines, assistant turns closed by EOS.
func renderOLMo(b *strings.Builder, msgs []Message, opts Options, bos, eos string) {
	b.WriteString(bos)
	for i, m := range msgs {
		last := i == len(msgs)-1
		switch m.Role {
		case "assistant":
			b.WriteString("<|assistant|>\n" + m.Content + eos)
			if !last {
				b.WriteString("\n")
			}
		default:
			b.WriteString("<|" + m.Role + "|>\n" + m.Content + "\n")
		}
	}
	if opts.AddGenerationPrompt {
		b.WriteString("<|assistant|>\n")
	}
}

// Plain text for base models (TinyStories and other SentencePiece story
// models): the contents one after another, nothing added.
func renderText(b *strings.Builder, msgs []Message, _ Options, _, _ string) {
	for _, m := range msgs {
		b.WriteString(m.Content)
	}
}
