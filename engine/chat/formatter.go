package chat

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
)

// PresetTemplate is what Formatter.Preset reports when the GGUF's own Jinja
// template is in use.
const PresetTemplate = "template"

// Formatter renders conversations for one model.
type Formatter struct {
	name     string    // PresetTemplate or a preset name
	tmpl     *template // set when name == PresetTemplate
	preset   preset    // set otherwise
	bos, eos string
	thinking bool
	tmplErr  error // why the file's template is not used, if it has one
}

// New builds the formatter for a model from its GGUF metadata: the chat
// template when there is one that renders, else a preset chosen from the
// template text or from the architecture and pre-tokenizer.
func New(md *gguf.Metadata) (*Formatter, error) {
	if md == nil {
		return nil, errors.New("chat: no metadata")
	}
	bos, err := tokenText(md, "tokenizer.ggml.bos_token_id")
	if err != nil {
		return nil, err
	}
	eos, err := tokenText(md, "tokenizer.ggml.eos_token_id")
	if err != nil {
		return nil, err
	}
	arch, _ := md.String("general.architecture")
	pre, _ := md.String("tokenizer.ggml.pre")
	tokModel, _ := md.String("tokenizer.ggml.model")

	src, hasTemplate := md.String("tokenizer.chat_template")
	if _, ok := presets[strings.TrimSpace(src)]; ok && hasTemplate {
		// A preset's name in place of a template, as llama.cpp accepts.
		return NewPreset(strings.TrimSpace(src), bos, eos)
	}
	if hasTemplate && strings.TrimSpace(src) != "" {
		f, err := NewTemplate(src, bos, eos)
		if err == nil {
			return f, nil
		}
		name, ok := presetFromTemplate(src)
		if !ok {
			name = presetFromModel(arch, pre, tokModel)
		}
		f, perr := NewPreset(name, bos, eos)
		if perr != nil {
			return nil, perr
		}
		f.tmplErr = err
		return f, nil
	}
	return NewPreset(presetFromModel(arch, pre, tokModel), bos, eos)
}

// NewTemplate builds a formatter from Jinja template source. It fails when
// the template does not compile or cannot render a one-message
// conversation, the test llama.cpp also applies before trusting one.
func NewTemplate(src, bos, eos string) (*Formatter, error) {
	t, err := compileTemplate(src)
	if err != nil {
		return nil, err
	}
	probe := []Message{{Role: "user", Content: "Hello"}}
	if _, err := t.render(probe, Options{AddGenerationPrompt: true}, bos, eos); err != nil {
		return nil, err
	}
	return &Formatter{
		name: PresetTemplate, tmpl: t, bos: bos, eos: eos,
		thinking: templateThinks(src),
	}, nil
}

// NewPreset builds a formatter from a built-in preset (see PresetNames);
// bos and eos are the token texts the format writes, "" where the
// vocabulary has none.
func NewPreset(name, bos, eos string) (*Formatter, error) {
	p, err := lookupPreset(name)
	if err != nil {
		return nil, err
	}
	return &Formatter{name: name, preset: p, bos: bos, eos: eos, thinking: p.thinking}, nil
}

// templateThinks reports whether a template has a reasoning mode: it
// switches on enable_thinking or writes think tags itself.
func templateThinks(src string) bool {
	return strings.Contains(src, "enable_thinking") || strings.Contains(src, "<think>")
}

// tokenText is the text of the token whose id metadata key holds, "" when
// the key is absent.
func tokenText(md *gguf.Metadata, key string) (string, error) {
	if !md.Has(key) {
		return "", nil
	}
	id, ok := md.Uint(key)
	if !ok {
		return "", fmt.Errorf("chat: %s is not a token id", key)
	}
	tokens, ok := md.Strings("tokenizer.ggml.tokens")
	if !ok {
		return "", fmt.Errorf("chat: %s is set but tokenizer.ggml.tokens is missing", key)
	}
	if id >= uint64(len(tokens)) {
		return "", fmt.Errorf("chat: %s = %d is outside the vocabulary of %d tokens", key, id, len(tokens))
	}
	return tokens[id], nil
}

// Render formats msgs as the prompt text to tokenize (special tokens
// parsed). The text starts with the BOS text when the format writes one;
// a caller whose tokenizer adds BOS itself removes it with TrimBOS.
func (f *Formatter) Render(msgs []Message, opts Options) (string, error) {
	for i, m := range msgs {
		if m.Role == "" {
			return "", fmt.Errorf("chat: message %d has no role", i)
		}
	}
	if opts.Raw {
		var b strings.Builder
		for _, m := range msgs {
			b.WriteString(m.Content)
		}
		return b.String(), nil
	}
	if len(bytes.TrimSpace(opts.Tools)) > 0 && !f.templateKnowsTools() {
		// A format that cannot show tools gets them as system text (the
		// Hermes instructions), and earlier calls and answers as text.
		var err error
		if msgs, err = withToolSystem(msgs, opts.Tools); err != nil {
			return "", err
		}
		msgs = f.inlineToolTurns(msgs)
		opts.Tools = nil
	}
	if f.tmpl != nil {
		return f.tmpl.render(msgs, opts, f.bos, f.eos)
	}
	var b strings.Builder
	f.preset.render(&b, msgs, opts, f.bos, f.eos)
	return b.String(), nil
}

// inlineToolTurns writes tool calls into their assistant messages' text
// and turns tool answers into user messages, for formats that have no
// place for either.
func (f *Formatter) inlineToolTurns(msgs []Message) []Message {
	tf := f.ToolFormat()
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		switch {
		case len(m.ToolCalls) > 0:
			parts := []string{}
			if m.Content != "" {
				parts = append(parts, m.Content)
			}
			for _, c := range m.ToolCalls {
				parts = append(parts, tf.FormatCall(c))
			}
			m.Content, m.ToolCalls = strings.Join(parts, "\n"), nil
		case m.Role == "tool":
			m = Message{Role: "user", Content: "<tool_response>\n" + m.Content + "\n</tool_response>"}
		}
		out = append(out, m)
	}
	return out
}

// Preset is the preset in use, or PresetTemplate for the file's template.
func (f *Formatter) Preset() string { return f.name }

// TemplateErr says why the file's template is not in use, nil when it is
// or when the file has none.
func (f *Formatter) TemplateErr() error { return f.tmplErr }

// SupportsThinking reports whether the format has a reasoning mode that
// Options.Thinking switches.
func (f *Formatter) SupportsThinking() bool { return f.thinking }

// BOS and EOS are the texts of the vocabulary's BOS and EOS tokens.
func (f *Formatter) BOS() string { return f.bos }
func (f *Formatter) EOS() string { return f.eos }

// TrimBOS removes a leading BOS text from a rendered prompt, for a
// tokenizer that adds BOS itself (llama.cpp does the same so BOS is not
// doubled).
func (f *Formatter) TrimBOS(prompt string) string {
	if f.bos == "" {
		return prompt
	}
	return strings.TrimPrefix(prompt, f.bos)
}

// PromptStartsInReasoning reports whether a rendered prompt leaves a think
// block open (GLM-4.7 and DeepSeek-R1 prompts end with "<think>"), so the
// model's first words are reasoning: pass it to NewThinkSplitter.
func (f *Formatter) PromptStartsInReasoning(rendered string) bool {
	open := strings.LastIndex(rendered, thinkOpen)
	if open < 0 {
		return false
	}
	return !strings.Contains(rendered[open:], thinkClose)
}
