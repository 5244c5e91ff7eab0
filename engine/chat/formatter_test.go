package chat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/internal/oracle"
)

func readSharedTemplate(t *testing.T, name string) string {
	t.Helper()
	shared := oracle.SharedDir()
	if shared == "" {
		t.Skip("../shared is absent: no templates")
	}
	b, err := os.ReadFile(filepath.Join(shared, "templates", name+".jinja"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// vocabMetadata is the metadata of a small vocabulary with BOS and EOS.
func vocabMetadata(arch, pre, model string) *gguf.Metadata {
	md := &gguf.Metadata{}
	md.Set("general.architecture", gguf.ValStr(arch))
	md.Set("tokenizer.ggml.model", gguf.ValStr(model))
	if pre != "" {
		md.Set("tokenizer.ggml.pre", gguf.ValStr(pre))
	}
	md.Set("tokenizer.ggml.tokens", gguf.ValStrs([]string{"a", "<|begin_of_text|>", "b", "<|end_of_text|>"}))
	md.Set("tokenizer.ggml.bos_token_id", gguf.ValU32(1))
	md.Set("tokenizer.ggml.eos_token_id", gguf.ValU32(3))
	return md
}

func TestNewPicksPresetFromModel(t *testing.T) {
	cases := []struct{ arch, pre, model, want string }{
		{"llama", "llama-bpe", "gpt2", PresetLlama3},
		{"qwen3", "qwen2", "gpt2", PresetQwen2},
		{"deepseek2", "glm4", "gpt2", PresetGLM4},
		{"deepseek2", "youtu", "gpt2", PresetYoutu},
		{"deepseek2", "deepseek-llm", "gpt2", PresetDeepSeekLLM},
		{"olmoe", "olmo", "gpt2", PresetOLMo},
		{"llama", "", "llama", PresetText},
		{"mystery", "mystery", "gpt2", PresetQwen2},
	}
	for _, c := range cases {
		f, err := New(vocabMetadata(c.arch, c.pre, c.model))
		if err != nil {
			t.Fatal(err)
		}
		if f.Preset() != c.want {
			t.Errorf("%s/%s: preset %q, want %q", c.arch, c.pre, f.Preset(), c.want)
		}
		if f.BOS() != "<|begin_of_text|>" || f.EOS() != "<|end_of_text|>" {
			t.Errorf("bos/eos = %q/%q", f.BOS(), f.EOS())
		}
	}
}

func TestNewUsesTemplate(t *testing.T) {
	src := readSharedTemplate(t, "GLM-4.7-Flash")
	md := vocabMetadata("deepseek2", "glm4", "gpt2")
	md.Set("tokenizer.chat_template", gguf.ValStr(src))
	f, err := New(md)
	if err != nil {
		t.Fatal(err)
	}
	if f.Preset() != PresetTemplate || !f.SupportsThinking() || f.TemplateErr() != nil {
		t.Fatalf("preset %q thinking %v err %v", f.Preset(), f.SupportsThinking(), f.TemplateErr())
	}
	msgs := []Message{{Role: "user", Content: "Hi"}}
	on, err := f.Render(msgs, Options{AddGenerationPrompt: true})
	if err != nil {
		t.Fatal(err)
	}
	// GLM-4.7 opens the think block itself when thinking is on (the default)
	// and writes a lone </think> when it is off.
	if !strings.HasSuffix(on, "<|assistant|><think>") || !f.PromptStartsInReasoning(on) {
		t.Errorf("thinking on: %q", on)
	}
	off, err := f.Render(msgs, Options{AddGenerationPrompt: true, Thinking: Bool(false)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(off, "<|assistant|></think>") || f.PromptStartsInReasoning(off) {
		t.Errorf("thinking off: %q", off)
	}

	qwen := readSharedTemplate(t, "Qwen-Qwen3-0.6B")
	md.Set("tokenizer.chat_template", gguf.ValStr(qwen))
	f, err = New(md)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := f.Render(msgs, Options{AddGenerationPrompt: true})
	if f.PromptStartsInReasoning(p) {
		t.Errorf("Qwen3 writes <think> itself; prompt %q does not start in reasoning", p)
	}
	llama := readSharedTemplate(t, "meta-llama-Llama-3.1-8B-Instruct")
	md.Set("tokenizer.chat_template", gguf.ValStr(llama))
	if f, err = New(md); err != nil || f.SupportsThinking() {
		t.Errorf("Llama 3.1: err %v, SupportsThinking %v", err, f.SupportsThinking())
	}
	p, _ = f.Render(msgs, Options{AddGenerationPrompt: true})
	if !strings.HasPrefix(p, "<|begin_of_text|>") || strings.HasPrefix(f.TrimBOS(p), "<|begin_of_text|>") {
		t.Errorf("BOS handling: %q / %q", p, f.TrimBOS(p))
	}
}

func TestNewFallsBackWhenTemplateFails(t *testing.T) {
	cases := []struct{ src, want string }{
		// Does not compile, but names ChatML's tags.
		{"{% for m in messages %}<|im_start|>{{ m.role }{% endfor %}", PresetQwen2},
		// Compiles, but raises on every conversation; Llama 3 headers.
		{"{{ raise_exception('no') }}<|start_header_id|><|end_header_id|>", PresetLlama3},
		// A preset name as template, as llama.cpp accepts.
		{"youtu", PresetYoutu},
		// Nothing recognisable: the model's keys decide.
		{"{% if %}", PresetGLM4},
	}
	for _, c := range cases {
		md := vocabMetadata("deepseek2", "glm4", "gpt2")
		md.Set("tokenizer.chat_template", gguf.ValStr(c.src))
		f, err := New(md)
		if err != nil {
			t.Fatal(err)
		}
		if f.Preset() != c.want {
			t.Errorf("%q: preset %q, want %q", c.src, f.Preset(), c.want)
		}
		if c.src != "youtu" && f.TemplateErr() == nil {
			t.Errorf("%q: TemplateErr is nil", c.src)
		}
	}
	if _, err := NewTemplate("{% for %}", "", ""); err == nil {
		t.Error("NewTemplate accepted a broken template")
	}
}

func TestNewRejectsBadMetadata(t *testing.T) {
	if _, err := New(nil); err == nil {
		t.Error("nil metadata accepted")
	}
	md := vocabMetadata("llama", "llama-bpe", "gpt2")
	md.Set("tokenizer.ggml.eos_token_id", gguf.ValU32(99))
	if _, err := New(md); err == nil || !strings.Contains(err.Error(), "eos_token_id") {
		t.Errorf("out-of-range eos: err = %v", err)
	}
	md = vocabMetadata("llama", "llama-bpe", "gpt2")
	md.Delete("tokenizer.ggml.tokens")
	if _, err := New(md); err == nil || !strings.Contains(err.Error(), "tokenizer.ggml.tokens") {
		t.Errorf("missing tokens: err = %v", err)
	}
}

// TestStoriesModelIsPlainText reads the real TinyStories GGUF: a
// SentencePiece base model without a template renders as plain text.
func TestStoriesModelIsPlainText(t *testing.T) {
	shared := oracle.SharedDir()
	if shared == "" {
		t.Skip("../shared is absent: no stories260K.gguf")
	}
	r, err := gguf.Open(filepath.Join(shared, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := New(&r.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	if f.Preset() != PresetText || f.SupportsThinking() {
		t.Fatalf("preset %q thinking %v", f.Preset(), f.SupportsThinking())
	}
	if f.BOS() != "<s>" || f.EOS() != "</s>" {
		t.Errorf("bos/eos = %q/%q", f.BOS(), f.EOS())
	}
	p, err := f.Render([]Message{{Role: "user", Content: "Once upon a time"}}, Options{AddGenerationPrompt: true})
	if err != nil || p != "Once upon a time" {
		t.Errorf("Render = %q, %v", p, err)
	}
}

func TestRawMode(t *testing.T) {
	f, err := NewPreset(PresetLlama3, "<|begin_of_text|>", "<|eot_id|>")
	if err != nil {
		t.Fatal(err)
	}
	msgs := []Message{{Role: "user", Content: "  <|im_start|>as typed\n"}, {Role: "user", Content: "more"}}
	got, err := f.Render(msgs, Options{Raw: true, AddGenerationPrompt: true})
	if err != nil || got != "  <|im_start|>as typed\nmore" {
		t.Errorf("raw = %q, %v", got, err)
	}
	if _, err := f.Render([]Message{{Content: "x"}}, Options{}); err == nil {
		t.Error("message without role accepted")
	}
}

// TestStripArgumentsFollowPython pins the Python semantics of
// strip/lstrip/rstrip with an argument, where ember and HF's JS renderer
// differ (see randomText).
func TestStripArgumentsFollowPython(t *testing.T) {
	f, err := NewTemplate(`{{ messages[0].content.lstrip('\n') }}|{{ messages[0].content.rstrip('\n') }}|{{ messages[0].content.strip('\n ') }}`, "", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Render([]Message{{Role: "user", Content: "\n  x \n"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "  x \n|\n  x |x"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestToolsAndClock checks what the context carries beyond messages: tools
// in key order only when given, and strftime_now reading Options.Now.
func TestToolsAndClock(t *testing.T) {
	src := `{% if tools is defined %}{% for t in tools %}{{ t | tojson }}{% endfor %}{% else %}none{% endif %}|{{ strftime_now('%d %b %Y %H:%M') }}`
	f, err := NewTemplate(src, "", "")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2024, 7, 26, 9, 5, 0, 0, time.UTC)
	tools := json.RawMessage(`[{"type":"function","function":{"name":"get","parameters":{"z":1,"a":[true,null,2.5]}}}]`)
	got, err := f.Render(nil, Options{Tools: tools, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type": "function", "function": {"name": "get", "parameters": {"z": 1, "a": [true, null, 2.5]}}}|26 Jul 2024 09:05`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, _ := f.Render(nil, Options{Tools: json.RawMessage(`[]`), Now: now}); !strings.HasPrefix(got, "none|") {
		t.Errorf("empty tools passed as defined: %q", got)
	}
	for _, bad := range []string{`{"a":1}`, `[1,`, `[1] 2`, strings.Repeat("[", 100) + strings.Repeat("]", 100)} {
		if _, err := f.Render(nil, Options{Tools: json.RawMessage(bad)}); err == nil {
			t.Errorf("bad tools %q accepted", bad)
		}
	}
}
