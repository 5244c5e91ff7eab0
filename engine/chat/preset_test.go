package chat

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emberllm/ember/internal/oracle"
)

// llamaCppPresets builds testdata/chat_apply.c against the prebuilt
// libllama of the oracle package and returns a function formatting a
// conversation with one of llama.cpp's built-in presets.
func llamaCppPresets(t *testing.T) func(name string, msgs []Message, addAssistant bool) string {
	t.Helper()
	if err := oracle.Available(); err != nil {
		t.Skipf("oracle unavailable: %v", err)
	}
	lib := filepath.Join(oracle.Dir(), "node_modules", "@node-llama-cpp", "linux-x64", "bins", "linux-x64")
	if _, err := os.Stat(filepath.Join(lib, "libllama.v0.5.0.so")); err != nil {
		t.Skipf("prebuilt libllama not found in %s", lib)
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not installed")
	}
	bin := filepath.Join(t.TempDir(), "chat_apply")
	out, err := exec.Command("gcc", "-O1", "-o", bin, filepath.Join("testdata", "chat_apply.c"),
		"-L"+lib, "-l:libllama.v0.5.0.so", "-Wl,-rpath,"+lib).CombinedOutput()
	if err != nil {
		t.Fatalf("building chat_apply: %v\n%s", err, out)
	}
	return func(name string, msgs []Message, addAssistant bool) string {
		var in bytes.Buffer
		for _, m := range msgs {
			in.WriteString(m.Role + "\x00" + m.Content + "\x00")
		}
		flag := "0"
		if addAssistant {
			flag = "1"
		}
		cmd := exec.Command(bin, name, flag)
		cmd.Stdin = &in
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("chat_apply %s: %v: %s", name, err, stderr.String())
		}
		return string(got)
	}
}

func randomConversation(rng *rand.Rand) []Message {
	var msgs []Message
	if rng.Intn(2) == 0 {
		msgs = append(msgs, Message{Role: "system", Content: randomText(rng, 1+rng.Intn(8), true)})
	}
	turns := 1 + rng.Intn(3)
	for i := 0; i < turns; i++ {
		msgs = append(msgs, Message{Role: "user", Content: randomText(rng, 1+rng.Intn(10), true)})
		if i < turns-1 || rng.Intn(2) == 0 {
			msgs = append(msgs, Message{Role: "assistant", Content: randomText(rng, 1+rng.Intn(10), true)})
		}
	}
	return msgs
}

// TestPresetsMatchLlamaCpp compares the presets that llama.cpp also has
// with its llama_chat_apply_template on random conversations. ember's
// presets write the BOS text the model's template writes (llama.cpp leaves
// it to the tokenizer) and, for glm4, open or close the think block after
// the generation prompt; the comparison accounts for exactly that.
func TestPresetsMatchLlamaCpp(t *testing.T) {
	apply := llamaCppPresets(t)
	const dsEOS = "<｜end▁of▁sentence｜>"
	cases := []struct {
		preset, llamaName, bos, eos string
		genSuffix                   func(thinking bool) string
	}{
		{PresetLlama3, "llama3", "<|begin_of_text|>", "<|eot_id|>", nil},
		{PresetQwen2, "chatml", "", "<|im_end|>", nil},
		{PresetDeepSeekLLM, "deepseek2", "<｜begin▁of▁sentence｜>", dsEOS, nil},
		{PresetGLM4, "chatglm4", "", "<|endoftext|>", func(on bool) string {
			if on {
				return "<think>\n"
			}
			return "</think>"
		}},
	}
	rng := rand.New(rand.NewSource(99))
	for _, c := range cases {
		f, err := NewPreset(c.preset, c.bos, c.eos)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 12; n++ {
			msgs := randomConversation(rng)
			agp := n%2 == 0
			thinking := n%4 < 2
			got, err := f.Render(msgs, Options{AddGenerationPrompt: agp, Thinking: Bool(thinking)})
			if err != nil {
				t.Fatal(err)
			}
			if c.bos != "" && !strings.HasPrefix(got, c.bos) {
				t.Fatalf("%s: no leading BOS in %q", c.preset, got)
			}
			want := apply(c.llamaName, msgs, agp)
			if agp && c.genSuffix != nil {
				want += c.genSuffix(thinking)
			}
			if g := f.TrimBOS(got); g != want {
				t.Fatalf("%s (agp=%v thinking=%v): %s", c.preset, agp, thinking, firstDifference(g, want))
			}
		}
	}
}

// TestPresetOutputs pins the formats llama.cpp has no preset for, and
// thinking on and off for glm4 and youtu, on one conversation each.
func TestPresetOutputs(t *testing.T) {
	msgs := []Message{
		{Role: "system", Content: "Be brief."},
		{Role: "user", Content: "Hi"},
		{Role: "assistant", Content: "Hello!", ReasoningContent: "greet back"},
		{Role: "user", Content: "2+2?"},
	}
	on, off := Options{AddGenerationPrompt: true}, Options{AddGenerationPrompt: true, Thinking: Bool(false)}
	cases := []struct {
		preset, bos, eos string
		opts             Options
		msgs             []Message
		want             string
	}{
		{PresetYoutu, "<|begin_of_text|>", "<|end_of_text|>", on, msgs,
			"<|begin_of_text|>Be brief.<|User|>Hi<|Assistant|>Hello!<|end_of_text|><|User|>2+2?<|Assistant|><think>\n"},
		{PresetYoutu, "<|begin_of_text|>", "<|end_of_text|>", off, msgs,
			"<|begin_of_text|>Be brief.<|User|>Hi<|Assistant|>Hello!<|end_of_text|><|User|>2+2?<|Assistant|><think></think>"},
		{PresetGLM4, "", "", on, msgs,
			"[gMASK]<sop><|system|>\nBe brief.<|user|>\nHi<|assistant|>\nHello!<|user|>\n2+2?<|assistant|>\n<think>\n"},
		{PresetGLM4, "", "", off, msgs,
			"[gMASK]<sop><|system|>\nBe brief.<|user|>\nHi<|assistant|>\nHello!<|user|>\n2+2?<|assistant|>\n</think>"},
		{PresetOLMo, "<|endoftext|>", "<|endoftext|>", on, msgs,
			"<|endoftext|><|system|>\nBe brief.\n<|user|>\nHi\n<|assistant|>\nHello!<|endoftext|>\n<|user|>\n2+2?\n<|assistant|>\n"},
		{PresetOLMo, "", "</s>", Options{}, msgs[:3],
			"<|system|>\nBe brief.\n<|user|>\nHi\n<|assistant|>\nHello!</s>"},
		{PresetText, "<s>", "</s>", on, []Message{{Role: "user", Content: "Once upon a time"}, {Role: "user", Content: ", there"}},
			"Once upon a time, there"},
		{PresetDeepSeekLLM, "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", on, msgs,
			"<｜begin▁of▁sentence｜>Be brief.\n\nUser: Hi\n\nAssistant: Hello!<｜end▁of▁sentence｜>User: 2+2?\n\nAssistant:"},
		{PresetLlama3, "<|begin_of_text|>", "<|eot_id|>", on, msgs[:2],
			"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
		{PresetQwen2, "", "", on, msgs[:2],
			"<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"},
	}
	for _, c := range cases {
		f, err := NewPreset(c.preset, c.bos, c.eos)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.Render(c.msgs, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: %s", c.preset, firstDifference(got, c.want))
		}
	}
}

func TestPresetThinkingAndReasoningStart(t *testing.T) {
	for _, name := range PresetNames() {
		f, err := NewPreset(name, "<s>", "</s>")
		if err != nil {
			t.Fatal(err)
		}
		wantThinking := name == PresetGLM4 || name == PresetYoutu
		if f.SupportsThinking() != wantThinking {
			t.Errorf("%s: SupportsThinking = %v", name, f.SupportsThinking())
		}
		msgs := []Message{{Role: "user", Content: "Hi"}}
		p, _ := f.Render(msgs, Options{AddGenerationPrompt: true})
		if got := f.PromptStartsInReasoning(p); got != wantThinking {
			t.Errorf("%s: PromptStartsInReasoning(%q) = %v", name, p, got)
		}
		p, _ = f.Render(msgs, Options{AddGenerationPrompt: true, Thinking: Bool(false)})
		if f.PromptStartsInReasoning(p) {
			t.Errorf("%s: thinking off but prompt %q ends in reasoning", name, p)
		}
	}
	if _, err := NewPreset("nonesuch", "", ""); err == nil || !strings.Contains(err.Error(), "nonesuch") {
		t.Errorf("unknown preset: err = %v", err)
	}
}
