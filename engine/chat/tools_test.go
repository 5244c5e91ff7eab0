package chat

import (
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/sample/grammar"
)

const weatherTools = `[{"type":"function","function":{"name":"get_weather","description":"Weather in a city","parameters":{"type":"object","properties":{"city":{"type":"string","maxLength":10},"days":{"type":"integer"},"unit":{"enum":["c","f"]}},"required":["city"],"additionalProperties":false}}},
{"type":"function","function":{"name":"add","parameters":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}}}]`

func toolList(t testing.TB) []Tool {
	var list []struct {
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal([]byte(weatherTools), &list); err != nil {
		t.Fatal(err)
	}
	var out []Tool
	for _, x := range list {
		out = append(out, Tool{Name: x.Function.Name, Parameters: x.Function.Parameters})
	}
	return out
}

func templateFormatter(t testing.TB, name string) *Formatter {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "templates", name+".jinja"))
	if err != nil {
		t.Skip("../shared/templates is absent")
	}
	f, err := NewTemplate(string(src), "<s>", "</s>")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Each model family's template is known by the format its tool calls
// take; formats without a tool template are taught Hermes.
func TestToolFormatDetection(t *testing.T) {
	for name, want := range map[string]ToolFormat{
		"Qwen-Qwen3-0.6B": ToolsHermes, "Qwen-Qwen2.5-7B-Instruct": ToolsHermes,
		"meta-llama-Llama-3.1-8B-Instruct": ToolsLlama3, "meta-llama-Llama-3.2-3B-Instruct": ToolsLlama3, "meta-llama-Llama-3.3-70B-Instruct": ToolsLlama3,
		"GLM-4.6": ToolsGLM, "GLM-4.7-Flash": ToolsGLM,
	} {
		if got := templateFormatter(t, name).ToolFormat(); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	for _, p := range PresetNames() {
		f, _ := NewPreset(p, "", "")
		if f.ToolFormat() != ToolsHermes {
			t.Errorf("preset %s: %v", p, f.ToolFormat())
		}
	}
}

type callText struct {
	text, content string
	calls         []ToolCall
}

// Calls written in each format parse back, whole and streamed in pieces
// of any size; text around them stays text, and text that only looks like
// a call stays text.
func TestToolCallsRoundTrip(t *testing.T) {
	tools := toolList(t)
	calls := []ToolCall{{Name: "get_weather", Arguments: `{"city":"Paris \"Nord\"","days":3,"unit":"c"}`}, {Name: "add", Arguments: `{"a":1.5,"b":-2}`}}
	rng := rand.New(rand.NewSource(1))
	for _, tf := range []ToolFormat{ToolsHermes, ToolsLlama3, ToolsGLM} {
		var texts []callText
		one := tf.FormatCall(calls[0])
		two := tf.FormatCall(calls[0]) + "\n" + tf.FormatCall(calls[1])
		if tf == ToolsLlama3 {
			two = tf.FormatCall(calls[0]) + "; " + tf.FormatCall(calls[1])
		}
		texts = append(texts, callText{one, "", calls[:1]}, callText{two, "", calls}, callText{"Just text, <tool with a < in it.", "Just text, <tool with a < in it.", nil})
		if tf != ToolsLlama3 {
			texts = append(texts, callText{"Let me look.\n" + one, "Let me look.", calls[:1]}, callText{"<tool_call>not a call</tool_call> after", "<tool_call>not a call</tool_call> after", nil})
		} else {
			texts = append(texts, callText{"<|python_tag|>" + one, "", calls[:1]}, callText{`{"not": "a call"}`, `{"not": "a call"}`, nil})
		}
		for _, c := range texts {
			content, got := tf.ParseToolCalls(c.text, tools)
			check := func(how, content string, got []ToolCall) {
				if content != c.content || len(got) != len(c.calls) {
					t.Fatalf("%v %s %q: content %q, calls %+v", tf, how, c.text, content, got)
				}
				for i := range got {
					if got[i].Name != c.calls[i].Name || !sameJSON(got[i].Arguments, c.calls[i].Arguments) {
						t.Fatalf("%v %s %q: call %d is %+v, want %+v", tf, how, c.text, i, got[i], c.calls[i])
					}
				}
			}
			check("whole", content, got)
			for round := 0; round < 20; round++ {
				s := NewToolStream(tf, tools)
				var content strings.Builder
				var got []ToolCall
				rest := c.text
				for rest != "" {
					n := 1 + rng.Intn(min(len(rest), 7))
					text, calls := s.Feed(rest[:n])
					if strings.Contains(text, "<tool_call>") && c.content == "" {
						t.Fatalf("%v: a call's text came out as content: %q", tf, text)
					}
					content.WriteString(text)
					got = append(got, calls...)
					rest = rest[n:]
				}
				text, calls := s.Flush()
				content.WriteString(text)
				check("streamed", content.String(), append(got, calls...))
			}
		}
	}
}

func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

// Templates render earlier calls (arguments as objects) and the tools'
// answers in their own formats.
func TestToolTurnsRender(t *testing.T) {
	msgs := []Message{
		{Role: "user", Content: "Weather in Paris?"},
		{Role: "assistant", ToolCalls: []ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
		{Role: "tool", ToolCallID: "call_1", Name: "get_weather", Content: `{"temp":21}`},
	}
	opts := Options{AddGenerationPrompt: true, Tools: json.RawMessage(weatherTools)}
	for name, want := range map[string][]string{
		"Qwen-Qwen3-0.6B":                  {"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", "<tool_response>\n{\"temp\":21}\n</tool_response>", `"name": "get_weather"`},
		"meta-llama-Llama-3.1-8B-Instruct": {`{"name": "get_weather", "parameters": {"city": "Paris"}}`, "ipython<|end_header_id|>\n\n\"{\\\"temp\\\":21}\"" /* a string is iterable: tojson, as in Python */},
		"GLM-4.7-Flash":                    {"<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>", "<tool_response>{\"temp\":21}</tool_response>"},
	} {
		out, err := templateFormatter(t, name).Render(msgs, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the rendering lacks %q:\n%s", name, w, out)
			}
		}
	}
	// A preset has no tool template: the tools and the Hermes
	// instructions go into the system text, calls and answers inline.
	f, _ := NewPreset(PresetLlama3, "<s>", "</s>")
	out, err := f.Render(append([]Message{{Role: "system", Content: "Be brief."}}, msgs...), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Be brief.\n\n# Tools", `"name":"get_weather"`, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\":\"Paris\"}}\n</tool_call>", "<tool_response>\n{\"temp\":21}\n</tool_response>"} {
		if !strings.Contains(out, w) {
			t.Errorf("preset: the rendering lacks %q:\n%s", w, out)
		}
	}
}

// The grammar of a required call takes exactly the calls of the offered
// tools with arguments their schemas accept, in the model's format; what
// it writes parses back into such a call.
func TestToolGrammar(t *testing.T) {
	tools := toolList(t)
	for _, tf := range []ToolFormat{ToolsHermes, ToolsLlama3, ToolsGLM} {
		g, err := tf.ToolGrammar(tools, "", true)
		if err != nil {
			t.Fatal(err)
		}
		good := []ToolCall{{Name: "get_weather", Arguments: `{"city":"Paris","days":2}`}, {Name: "add", Arguments: `{"a":1,"b":2.5}`}}
		for _, c := range good {
			if ok, err := grammar.Match(g, tf.FormatCall(c)); !ok || err != nil {
				t.Errorf("%v: %q refused", tf, tf.FormatCall(c))
			}
		}
		sep := "\n"
		if tf == ToolsLlama3 {
			sep = "; "
		}
		if ok, _ := grammar.Match(g, tf.FormatCall(good[0])+sep+tf.FormatCall(good[1])); !ok {
			t.Errorf("%v: two calls refused", tf)
		}
		for _, c := range []ToolCall{{Name: "nope", Arguments: `{}`}, {Name: "get_weather", Arguments: `{"days":2}`}, {Name: "add", Arguments: `{"a":"x","b":1}`}} {
			if ok, _ := grammar.Match(g, tf.FormatCall(c)); ok {
				t.Errorf("%v: %q accepted", tf, tf.FormatCall(c))
			}
		}
		only, err := tf.ToolGrammar(tools, "add", false)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := grammar.Match(only, tf.FormatCall(good[0])); ok {
			t.Errorf("%v: the grammar for add takes get_weather", tf)
		}
		if ok, _ := grammar.Match(only, tf.FormatCall(good[1])); !ok {
			t.Errorf("%v: the grammar for add refuses it", tf)
		}
	}
	if _, err := ToolsHermes.ToolGrammar(tools, "missing", false); err == nil {
		t.Error("a grammar for a tool not offered")
	}
}
