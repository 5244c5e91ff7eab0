package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/engine/sample/grammar"
)

var templated struct {
	mu    sync.Mutex
	paths map[string]string
}

// templatedModel is the tiny llama carrying a real model's chat template
// from ../shared/templates (its tool format comes with it).
func templatedModel(t testing.TB, name string) string {
	t.Helper()
	plain, _ := tinyModels(t)
	src, err := os.ReadFile(filepath.Join("..", "..", "shared", "templates", name+".jinja"))
	if err != nil {
		t.Skip("../shared/templates is absent")
	}
	templated.mu.Lock()
	defer templated.mu.Unlock()
	if p, ok := templated.paths[name]; ok {
		return p
	}
	// Tool definitions in a template take a thousand tokens of the tiny
	// model's byte-level vocabulary.
	p, err := writeTinyModelCtx(filepath.Dir(plain), "tiny-"+name, 2048, gguf.KV{Key: "tokenizer.chat_template", Value: gguf.ValStr(string(src))})
	if err != nil {
		t.Fatal(err)
	}
	if templated.paths == nil {
		templated.paths = map[string]string{}
	}
	templated.paths[name] = p
	return p
}

// fullResp is a chat or completions answer with every field the tests
// look at.
type fullResp struct {
	Choices []struct {
		Index   int `json:"index"`
		Message *struct {
			Content   *string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		Text         string          `json:"text"`
		FinishReason string          `json:"finish_reason"`
		Logprobs     json.RawMessage `json:"logprobs"`
	} `json:"choices"`
	Usage usage `json:"usage"`
}

const personSchema = `{"type":"object","properties":{
  "name":{"type":"string","maxLength":8},
  "role":{"enum":["admin","user","guest"]},
  "tags":{"type":"array","items":{"type":"string","maxLength":3},"maxItems":2},
  "home":{"type":"object","properties":{"city":{"type":"string","maxLength":6},"floor":{"type":"integer"}},"required":["city","floor"],"additionalProperties":false},
  "active":{"type":"boolean"}},
  "required":["name","role","tags","home","active"],"additionalProperties":false}`

// response_format: a random model at temperature 1 writes JSON the schema
// accepts, whole and streamed, for every seed; json_object gives an
// object; a GBNF grammar (ember's extension) is followed too.
func TestServeResponseFormat(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Parallel: 2}, plain)
	format := map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "person", "strict": true, "schema": json.RawMessage(personSchema)}}
	for seed := range 4 {
		body := map[string]any{"messages": []map[string]string{{"role": "user", "content": "Who are you?"}}, "temperature": 1, "seed": seed,
			"max_tokens": 400, "response_format": format}
		status, out := ts.post(t, "/v1/chat/completions", body)
		if status != 200 {
			t.Fatalf("status %d: %s", status, out)
		}
		r := decode[fullResp](t, out)
		text := *r.Choices[0].Message.Content
		if err := grammar.Validate([]byte(personSchema), []byte(text)); err != nil || r.Choices[0].FinishReason != "stop" {
			t.Fatalf("seed %d: %s %q: %v", seed, r.Choices[0].FinishReason, text, err)
		}
		body["stream"] = true
		status, out = ts.post(t, "/v1/chat/completions", body)
		if s := readStream(t, out); status != 200 || s.content != text {
			t.Fatalf("seed %d: streamed %q, whole %q", seed, s.content, text)
		}
	}
	body := map[string]any{"messages": []map[string]string{{"role": "user", "content": "Hi"}}, "temperature": 0.7, "seed": 1,
		"max_tokens": 300, "response_format": map[string]string{"type": "json_object"}}
	status, out := ts.post(t, "/v1/chat/completions", body)
	r := decode[fullResp](t, out)
	if status != 200 || r.Choices[0].FinishReason == "stop" && !json.Valid([]byte(*r.Choices[0].Message.Content)) ||
		!strings.HasPrefix(*r.Choices[0].Message.Content, "{") {
		t.Fatalf("json_object: %d %s", status, out)
	}
	status, out = ts.post(t, "/v1/completions", map[string]any{"prompt": "Answer:", "temperature": 1, "grammar": `root ::= ("yes" | "no") "!"`})
	if r := decode[fullResp](t, out); status != 200 || (r.Choices[0].Text != "yes!" && r.Choices[0].Text != "no!") {
		t.Fatalf("grammar: %d %s", status, out)
	}
	for body, says := range map[string]string{
		`{"prompt":"x","grammar":"root ::= root"}`: "left-recursive",
		`{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{"type":"string","pattern":"a+"}}}}`: `pattern`,
		`{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"yaml"}}`:                                                                             "yaml",
		`{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_object"},"grammar":"root ::= \"a\""}`:                                           "not both",
		`{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_object"},"think":true}`:                                                         "think",
	} {
		path := "/v1/chat/completions"
		if strings.Contains(body, `"prompt"`) {
			path = "/v1/completions"
		}
		if status, out := ts.post(t, path, body); status != 400 || !strings.Contains(string(out), says) {
			t.Errorf("%s: %d %s", body, status, out)
		}
	}
}

const weatherTools = `[{"type":"function","function":{"name":"get_weather","description":"The weather in a city","parameters":{"type":"object","properties":{"city":{"type":"string","maxLength":8},"unit":{"enum":["c","f"]}},"required":["city","unit"],"additionalProperties":false}}},
{"type":"function","function":{"name":"add","parameters":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}}}]`

// Tools: on models with Qwen3's, Llama 3.1's and GLM-4.7's templates, a
// required call comes back as tool_calls (finish_reason tool_calls) in
// the model's own format, with arguments its schema accepts, whole and
// streamed alike; a named function is that function; the call and its
// answer go back into the next turn.
func TestServeToolCalls(t *testing.T) {
	schemas := map[string]string{
		"get_weather": `{"type":"object","properties":{"city":{"type":"string","maxLength":8},"unit":{"enum":["c","f"]}},"required":["city","unit"],"additionalProperties":false}`,
		"add":         `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`,
	}
	for _, tmpl := range []string{"Qwen-Qwen3-0.6B", "meta-llama-Llama-3.1-8B-Instruct", "GLM-4.7-Flash"} {
		model := templatedModel(t, tmpl)
		ts := startServer(t, Config{}, model)
		choices := []any{"required"}
		if tmpl == "Qwen-Qwen3-0.6B" {
			// A named function, on one format (the grammar's part is
			// tested on every format in engine/chat).
			choices = append(choices, map[string]any{"type": "function", "function": map[string]string{"name": "add"}})
		}
		for i, choice := range choices {
			body := map[string]any{"messages": []map[string]string{{"role": "user", "content": "Weather in Paris?"}}, "temperature": 1, "seed": i,
				"max_tokens": 200, "tools": json.RawMessage(weatherTools), "tool_choice": choice, "parallel_tool_calls": false}
			status, out := ts.post(t, "/v1/chat/completions", body)
			if status != 200 {
				t.Fatalf("%s: %d %s", tmpl, status, out)
			}
			r := decode[fullResp](t, out)
			c := r.Choices[0]
			if c.FinishReason != "tool_calls" || len(c.Message.ToolCalls) != 1 || c.Message.Content != nil {
				t.Fatalf("%s, tool_choice %v: %s", tmpl, choice, out)
			}
			call := c.Message.ToolCalls[0]
			if !strings.HasPrefix(call.ID, "call_") || call.Type != "function" || (i == 1 && call.Function.Name != "add") {
				t.Fatalf("%s: %+v", tmpl, call)
			}
			if err := grammar.Validate([]byte(schemas[call.Function.Name]), []byte(call.Function.Arguments)); err != nil {
				t.Fatalf("%s: %s(%s): %v", tmpl, call.Function.Name, call.Function.Arguments, err)
			}
			if i > 0 {
				continue
			}
			// Streamed: the same call, in one tool_calls delta.
			body["stream"] = true
			_, out = ts.post(t, "/v1/chat/completions", body)
			events, _ := sseEvents(strings.NewReader(string(out)))
			var calls []string
			finish := ""
			for _, ev := range events {
				if ev == "[DONE]" {
					continue
				}
				var ch struct {
					Choices []struct {
						Delta struct {
							Content   *string `json:"content"`
							ToolCalls []struct {
								Index    int `json:"index"`
								Function struct{ Name, Arguments string }
							} `json:"tool_calls"`
						} `json:"delta"`
						FinishReason *string `json:"finish_reason"`
					} `json:"choices"`
				}
				json.Unmarshal([]byte(ev), &ch)
				for _, x := range ch.Choices {
					if x.Delta.Content != nil && *x.Delta.Content != "" {
						t.Fatalf("%s: content in a tool-call stream: %q", tmpl, *x.Delta.Content)
					}
					for _, tc := range x.Delta.ToolCalls {
						calls = append(calls, fmt.Sprintf("%d %s %s", tc.Index, tc.Function.Name, tc.Function.Arguments))
					}
					if x.FinishReason != nil {
						finish = *x.FinishReason
					}
				}
			}
			if want := fmt.Sprintf("0 %s %s", call.Function.Name, call.Function.Arguments); len(calls) != 1 || calls[0] != want || finish != "tool_calls" {
				t.Fatalf("%s: streamed %q (%s), whole %q", tmpl, calls, finish, want)
			}
			// The next turn carries the call and its answer.
			next := map[string]any{"messages": []any{
				map[string]string{"role": "user", "content": "Weather in Paris?"},
				map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": call.ID, "type": "function",
					"function": map[string]string{"name": call.Function.Name, "arguments": call.Function.Arguments}}}},
				map[string]string{"role": "tool", "tool_call_id": call.ID, "content": `{"ok":true}`},
			}, "max_tokens": 1, "tools": json.RawMessage(weatherTools)}
			if status, out := ts.post(t, "/v1/chat/completions", next); status != 200 {
				t.Fatalf("%s: the next turn: %d %s", tmpl, status, out)
			}
		}
	}
	ts := startServer(t, Config{}, templatedModel(t, "Qwen-Qwen3-0.6B"))
	for body, says := range map[string]string{
		`{"messages":[{"role":"user","content":"x"}],"tool_choice":"required"}`:                                                                  "needs tools",
		`{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"a b"}}]}`:                                   "a b",
		`{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"retrieval"}]}`:                                                            "retrieval",
		`{"messages":[{"role":"user","content":"x"}],"tools":` + weatherTools + `,"tool_choice":{"type":"function","function":{"name":"nope"}}}`: "nope",
		`{"messages":[{"role":"user","content":"x"}],"tools":` + weatherTools + `,"tool_choice":"sometimes"}`:                                    "sometimes",
		`{"messages":[{"role":"tool","content":"x"}]}`:                                                                                           "tool_call_id",
		// A schema that is none is refused whatever tool_choice says; one
		// that asks what ember cannot constrain to only where a call is
		// constrained (below).
		`{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"strin"}}}}}]}`:                                          `tools[0].function.parameters: json schema: type \"strin\"`,
		`{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":"string"}}}}],"tool_choice":"none"}`:                             `not a schema object`,
		`{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string","pattern":"^a"}}}}}],"tool_choice":"required"}`: `\"pattern\" (in args-f-a) is not supported`,
		`{"messages":[{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"[1]"}}]}]}`:                                                                                      "arguments",
	} {
		if status, out := ts.post(t, "/v1/chat/completions", body); status != 400 || !strings.Contains(string(out), says) {
			t.Errorf("%s: %d %s", body, status, out)
		}
	}
	// The model may call a tool with a pattern freely (tool_choice auto).
	if status, out := ts.post(t, "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}],"max_tokens":2,"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"string","pattern":"^a"}}}}}]}`); status != 200 {
		t.Errorf("a pattern under tool_choice auto: %d %s", status, out)
	}
}

// logprobs (chat and completions), logit_bias and n.
func TestServeLogprobsBiasN(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, plain)
	msgs := []map[string]string{{"role": "user", "content": "Tell me a story"}}
	status, out := ts.post(t, "/v1/chat/completions", map[string]any{"messages": msgs, "max_tokens": 6, "temperature": 0, "ignore_eos": true,
		"logprobs": true, "top_logprobs": 3})
	var chat struct {
		Choices []struct {
			Logprobs struct {
				Content []struct {
					Token       string  `json:"token"`
					Logprob     float64 `json:"logprob"`
					Bytes       []int   `json:"bytes"`
					TopLogprobs []struct {
						Token   string  `json:"token"`
						Logprob float64 `json:"logprob"`
					} `json:"top_logprobs"`
				} `json:"content"`
			} `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(out, &chat); status != 200 || err != nil {
		t.Fatalf("%d %s", status, out)
	}
	lp := chat.Choices[0].Logprobs.Content
	if len(lp) != 6 {
		t.Fatalf("%d logprobs for 6 tokens: %s", len(lp), out)
	}
	for _, e := range lp {
		// Greedy: the chosen token is the most likely one.
		if e.Logprob > 0 || len(e.TopLogprobs) != 3 || e.TopLogprobs[0].Logprob != e.Logprob || e.TopLogprobs[1].Logprob > e.TopLogprobs[0].Logprob || len(e.Bytes) == 0 {
			t.Fatalf("entry %+v", e)
		}
	}
	// The greedy first token, banned, is never chosen; boosted, always.
	first := decode[fullResp](t, postOK(t, ts, "/v1/completions", map[string]any{"prompt": "Once", "max_tokens": 1, "temperature": 0, "logprobs": 1}))
	var clp completionLogprobs
	json.Unmarshal(first.Choices[0].Logprobs, &clp)
	if len(clp.Tokens) != 1 || len(clp.TopLogprobs) != 1 || len(clp.TextOffset) != 1 || clp.TextOffset[0] != 0 {
		t.Fatalf("completions logprobs: %+v", clp)
	}
	id := greedyFirst(t, ts, "Once", nil)
	if got := greedyFirst(t, ts, "Once", map[int32]float32{id: -100}); got == id {
		t.Fatalf("the banned token %d was chosen", id)
	}
	// (The texts of byte tokens that split a character cannot tell them
	// apart: the check above is on ids, this one on the API taking it.)
	postOK(t, ts, "/v1/completions", map[string]any{"prompt": "Once", "max_tokens": 1, "temperature": 0, "logit_bias": map[string]float64{fmt.Sprint(id): -100}})
	x, _ := ts.local.eng.Tokenizer.TokenID("x")
	boosted := decode[fullResp](t, postOK(t, ts, "/v1/completions", map[string]any{"prompt": "Once", "max_tokens": 4, "temperature": 1, "seed": 5,
		"ignore_eos": true, "logit_bias": map[string]float64{fmt.Sprint(x): 100}}))
	if want := "xxxx"; boosted.Choices[0].Text != want {
		t.Fatalf("boosted: %q, want %q", boosted.Choices[0].Text, want)
	}
	// n: several choices, one prompt's worth of prompt tokens.
	r := decode[fullResp](t, postOK(t, ts, "/v1/completions", map[string]any{"prompt": "Once", "max_tokens": 8, "temperature": 1, "seed": 3, "n": 3, "ignore_eos": true, "echo": true}))
	if len(r.Choices) != 3 || r.Usage.CompletionTokens != 24 || r.Choices[0].Text == r.Choices[1].Text || r.Choices[2].Index != 2 || !strings.HasPrefix(r.Choices[1].Text, "Once") {
		t.Fatalf("n=3: %+v", r)
	}
	status, out = ts.post(t, "/v1/chat/completions", map[string]any{"messages": msgs, "max_tokens": 5, "temperature": 1, "seed": 3, "n": 2, "stream": true,
		"ignore_eos": true, "stream_options": map[string]bool{"include_usage": true}})
	s := readStream(t, out)
	if status != 200 || !s.done || s.usage == nil || s.usage.CompletionTokens != 10 || strings.Count(string(out), `"finish_reason":"length"`) != 2 {
		t.Fatalf("n=2 streamed: %d %s", status, out)
	}
	for body, says := range map[string]string{
		`{"prompt":"x","logit_bias":{"abc":1}}`:                                          "abc",
		`{"prompt":"x","logit_bias":{"99999":1}}`:                                        "99999",
		`{"prompt":"x","logit_bias":{"3":101}}`:                                          "101",
		`{"prompt":"x","logprobs":6}`:                                                    "logprobs 6",
		`{"prompt":"x","logprobs":1,"echo":true}`:                                        "echo",
		`{"prompt":"x","suffix":"end"}`:                                                  "suffix",
		`{"prompt":"x","n":2,"best_of":3}`:                                               "best_of",
		`{"messages":[{"role":"user","content":"x"}],"top_logprobs":2}`:                  "needs logprobs",
		`{"messages":[{"role":"user","content":"x"}],"logprobs":true,"top_logprobs":21}`: "21",
	} {
		path := "/v1/completions"
		if strings.Contains(body, "messages") {
			path = "/v1/chat/completions"
		}
		if status, out := ts.post(t, path, body); status != 400 || !strings.Contains(string(out), says) {
			t.Errorf("%s: %d %s", body, status, out)
		}
	}
}

// OpenAI's fields that change nothing ember returns are accepted and
// named in a Warning header; fields it cannot honour and fields nobody
// defines are refused.
func TestServeOpenAIFields(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, plain)
	base := `"messages":[{"role":"user","content":"hi"}],"max_tokens":2`
	req, _ := http.NewRequest("POST", ts.url+"/v1/chat/completions", strings.NewReader(`{`+base+
		`,"store":true,"metadata":{"a":"b"},"service_tier":"auto","parallel_tool_calls":true,"user":"u1","prompt_cache_key":"k","modalities":["text"],"stream_options":null}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	w := resp.Header.Get("Warning")
	if resp.StatusCode != 200 || !strings.HasPrefix(w, "299 ember ") {
		t.Fatalf("%d, Warning %q", resp.StatusCode, w)
	}
	for _, f := range []string{"store", "metadata", "service_tier", "user", "prompt_cache_key", "modalities"} {
		if !strings.Contains(w, f) {
			t.Errorf("the Warning header %q does not name %s", w, f)
		}
	}
	if status, _ := ts.post(t, "/v1/chat/completions", `{`+base+`}`); status != 200 {
		t.Fatal(status)
	}
	for extra, says := range map[string]string{
		`"audio":{"voice":"x"}`:         "audio",
		`"modalities":["text","audio"]`: "modalities",
		`"functions":[]`:                "tools",
		`"web_search_options":{}`:       "web",
		`"frobnicate":1`:                `unknown field \"frobnicate\"`,
	} {
		if status, out := ts.post(t, "/v1/chat/completions", `{`+base+`,`+extra+`}`); status != 400 || !strings.Contains(string(out), says) {
			t.Errorf("%s: %d %s", extra, status, out)
		}
	}
}

func postOK(t testing.TB, ts *testServer, path string, body any) []byte {
	t.Helper()
	status, out := ts.post(t, path, body)
	if status != 200 {
		t.Fatalf("%s: %d %s", path, status, out)
	}
	return out
}

// greedyFirst is the token the server's model chooses first for a raw
// prompt at temperature 0, with bias.
func greedyFirst(t testing.TB, ts *testServer, prompt string, bias map[int32]float32) int32 {
	t.Helper()
	s, err := ts.local.eng.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	o := sample.DefaultOptions()
	o.Temperature = 0
	res, err := s.Generate(context.Background(), engine.Request{Prompt: prompt, Raw: true, Sample: o, MaxTokens: 1, LogitBias: bias, IgnoreEOS: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tokens[0]
}

// The relay protocol does not carry constrained output, tools, biases or
// logprobs: a browser engine's model refuses them by name, and serves
// plain requests as before.
func TestServeFeaturesNotRelayed(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{}, "")
	startBrowser(t, ts, plain, "tab-model")
	base := `"model":"tab-model","messages":[{"role":"user","content":"hi"}],"max_tokens":2`
	for _, extra := range []string{`"response_format":{"type":"json_object"}`, `"logprobs":true`, `"logit_bias":{"1":2}`,
		`"tools":` + weatherTools, `"grammar":"root ::= \"a\""`} {
		if status, out := ts.post(t, "/v1/chat/completions", `{`+base+`,`+extra+`}`); status != 400 || !strings.Contains(string(out), "browser engine") {
			t.Errorf("%s: %d %s", extra, status, out)
		}
	}
	if status, out := ts.post(t, "/v1/chat/completions", `{`+base+`}`); status != 200 {
		t.Fatalf("plain: %d %s", status, out)
	}
}
