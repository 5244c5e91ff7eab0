package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/emberllm/ember/engine/sample/grammar"
)

// Tool calling: the tools a request offers go to the template (as
// `tools`, Options.Tools), an assistant's earlier calls and the tools'
// answers go back into the conversation (Message.ToolCalls, role "tool"),
// and the calls a model writes are parsed out of its answer in the format
// its template taught it. Three formats, as the models write them:
//
//   - Hermes (Qwen2.5, Qwen3 and ChatML models; the fallback):
//     <tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>, one
//     block per call, after any text;
//   - Llama 3.x: the whole answer is {"name": "f", "parameters": {...}}
//     (or "arguments"), possibly after <|python_tag|>;
//   - GLM-4.5 to 4.7: <tool_call>f<arg_key>k</arg_key><arg_value>v</arg_value>...</tool_call>
//     (newlines between the parts in 4.5/4.6), string values bare, others
//     as JSON.
//
// Where a template never mentions tools (and for presets), the tools and
// the Hermes instructions are put in a system message, as llama.cpp does
// for templates without tool support.

// ToolCall is one call of a function: Arguments is a JSON object's text.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Tool is one function a request offers: its name and the JSON Schema of
// its arguments (may be empty: any object).
type Tool struct {
	Name       string
	Parameters json.RawMessage
}

// ToolFormat is how a model writes tool calls.
type ToolFormat int

const (
	ToolsHermes ToolFormat = iota
	ToolsLlama3
	ToolsGLM
)

func (tf ToolFormat) String() string {
	return [...]string{"hermes", "llama3", "glm"}[tf]
}

// ToolFormat is the format of this model's tool calls, from its
// template's text; a format without a template that knows tools is
// taught Hermes.
func (f *Formatter) ToolFormat() ToolFormat {
	if !f.templateKnowsTools() {
		return ToolsHermes
	}
	src := f.tmpl.src
	switch {
	case strings.Contains(src, "<arg_key>"):
		return ToolsGLM
	case strings.Contains(src, "<tool_call>"):
		return ToolsHermes
	case strings.Contains(src, "<|start_header_id|>"):
		return ToolsLlama3
	}
	return ToolsHermes
}

// templateKnowsTools reports whether the file's template renders `tools`
// itself.
func (f *Formatter) templateKnowsTools() bool {
	return f.tmpl != nil && strings.Contains(f.tmpl.src, "tools")
}

// toolSystemText is the system text that teaches a model without a tool
// template the Hermes format.
func toolSystemText(tools json.RawMessage) (string, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(tools, &list); err != nil {
		return "", errors.New("chat: tools must be a JSON array")
	}
	var b strings.Builder
	b.WriteString("# Tools\n\nYou may call one or more functions to assist with the user query.\n\n")
	b.WriteString("You are provided with function signatures within <tools></tools> XML tags:\n<tools>")
	for _, t := range list {
		var c bytes.Buffer
		if err := json.Compact(&c, t); err != nil {
			return "", err
		}
		b.WriteString("\n")
		b.Write(c.Bytes())
	}
	b.WriteString("\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n")
	b.WriteString("<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>")
	return b.String(), nil
}

// withToolSystem puts the tool instructions into the conversation's system
// message (a new one first when there is none).
func withToolSystem(msgs []Message, tools json.RawMessage) ([]Message, error) {
	text, err := toolSystemText(tools)
	if err != nil {
		return nil, err
	}
	out := append([]Message(nil), msgs...)
	if len(out) > 0 && out[0].Role == "system" {
		out[0].Content = out[0].Content + "\n\n" + text
		return out, nil
	}
	return append([]Message{{Role: "system", Content: text}}, out...), nil
}

// FormatCall writes a call as the model writes it (for conversations that
// carry earlier calls through a preset).
func (tf ToolFormat) FormatCall(c ToolCall) string {
	args := c.Arguments
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	switch tf {
	case ToolsLlama3:
		return `{"name": "` + c.Name + `", "parameters": ` + args + `}`
	case ToolsGLM:
		var b strings.Builder
		b.WriteString("<tool_call>" + c.Name)
		if o, err := orderedArgs(args); err == nil {
			for _, kv := range o {
				b.WriteString("<arg_key>" + kv.key + "</arg_key><arg_value>")
				var s string
				if json.Unmarshal(kv.val, &s) == nil {
					b.WriteString(s)
				} else {
					b.Write(kv.val)
				}
				b.WriteString("</arg_value>")
			}
		}
		b.WriteString("</tool_call>")
		return b.String()
	}
	return "<tool_call>\n{\"name\": \"" + c.Name + "\", \"arguments\": " + args + "}\n</tool_call>"
}

type keyVal struct {
	key string
	val json.RawMessage
}

// orderedArgs reads a JSON object's members in order.
func orderedArgs(args string) ([]keyVal, error) {
	dec := json.NewDecoder(strings.NewReader(args))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var out []keyVal
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, keyVal{k.(string), v})
	}
	return out, nil
}

// ParseToolCalls splits a finished answer into its text and the tool
// calls in it. Text that looks like a call but does not parse stays text.
func (tf ToolFormat) ParseToolCalls(text string, tools []Tool) (string, []ToolCall) {
	s := NewToolStream(tf, tools)
	content, calls := s.Feed(text)
	c2, calls2 := s.Flush()
	return content + c2, append(calls, calls2...)
}

// ToolStream finds tool calls in streamed answer text: Feed returns the
// text that is certainly not part of a call and the calls completed so
// far, holding back what may still turn into one.
type ToolStream struct {
	tf        ToolFormat
	tools     []Tool
	buf       string // held text
	start     bool   // nothing but whitespace written yet (Llama 3's calls open the answer)
	afterCall bool   // a call was the last thing: whitespace after it is dropped
}

// NewToolStream starts a stream of answer text.
func NewToolStream(tf ToolFormat, tools []Tool) *ToolStream {
	return &ToolStream{tf: tf, tools: tools, start: true}
}

const (
	hermesOpen  = "<tool_call>"
	hermesClose = "</tool_call>"
	pythonTag   = "<|python_tag|>"
)

// Feed takes the next piece of answer text.
func (s *ToolStream) Feed(text string) (string, []ToolCall) {
	s.buf += text
	return s.step(false)
}

// Flush ends the stream: what is held comes out, as a call if it parses.
func (s *ToolStream) Flush() (string, []ToolCall) { return s.step(true) }

func (s *ToolStream) step(final bool) (string, []ToolCall) {
	if s.tf == ToolsLlama3 {
		return s.stepLlama3(final)
	}
	var out strings.Builder
	var calls []ToolCall
	// text writes answer text; the whitespace that separates calls from
	// each other and from the text is not part of the answer.
	text := func(t string, beforeCall bool) {
		if s.afterCall {
			t = strings.TrimLeft(t, asciiSpace)
		}
		if beforeCall {
			t = strings.TrimRight(t, asciiSpace)
		}
		if t != "" {
			s.afterCall = false
		}
		out.WriteString(t)
	}
	for {
		i := strings.Index(s.buf, hermesOpen)
		if i < 0 {
			keep := 0
			if !final {
				// A possible start of a call, and the whitespace before it.
				keep = partialSuffix(s.buf, hermesOpen)
				keep = len(s.buf) - len(strings.TrimRight(s.buf[:len(s.buf)-keep], asciiSpace))
			}
			text(s.buf[:len(s.buf)-keep], false)
			s.buf = s.buf[len(s.buf)-keep:]
			break
		}
		j := strings.Index(s.buf[i:], hermesClose)
		if j < 0 {
			if !final {
				text(s.buf[:i], true)
				s.buf = s.buf[i:]
				break
			}
			// An unclosed call at the end: a call if it parses, else text.
			if c, ok := s.parseBlock(s.buf[i+len(hermesOpen):]); ok {
				text(s.buf[:i], true)
				calls = append(calls, c)
				s.afterCall = true
			} else {
				text(s.buf, false)
			}
			s.buf = ""
			break
		}
		block := s.buf[i+len(hermesOpen) : i+j]
		if c, ok := s.parseBlock(block); ok {
			text(s.buf[:i], true)
			calls = append(calls, c)
			s.afterCall = true
		} else {
			text(s.buf[:i+j+len(hermesClose)], false)
		}
		s.buf = s.buf[i+j+len(hermesClose):]
	}
	written := out.String()
	if len(calls) > 0 || strings.TrimSpace(written) != "" {
		s.start = false
	}
	return written, calls
}

// parseBlock reads what is between <tool_call> and </tool_call>.
func (s *ToolStream) parseBlock(block string) (ToolCall, bool) {
	if s.tf == ToolsGLM {
		return s.parseGLM(block)
	}
	return parseJSONCall(block, "arguments")
}

// parseJSONCall reads {"name": ..., "arguments" (or "parameters"): {...}}.
func parseJSONCall(text, _ string) (ToolCall, bool) {
	var c struct {
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
		Parameters json.RawMessage `json:"parameters"`
	}
	dec := json.NewDecoder(strings.NewReader(strings.TrimSpace(text)))
	if err := dec.Decode(&c); err != nil || c.Name == "" {
		return ToolCall{}, false
	}
	if _, err := dec.Token(); err == nil {
		return ToolCall{}, false // more after the object
	}
	args := c.Arguments
	if args == nil {
		args = c.Parameters
	}
	if args == nil {
		args = json.RawMessage("{}")
	}
	// Arguments given as a JSON string holding an object are unwrapped.
	var str string
	if json.Unmarshal(args, &str) == nil && json.Valid([]byte(str)) {
		args = json.RawMessage(str)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return ToolCall{}, false
	}
	var b bytes.Buffer
	json.Compact(&b, args)
	return ToolCall{Name: c.Name, Arguments: b.String()}, true
}

// parseGLM reads f<arg_key>k</arg_key><arg_value>v</arg_value>...
func (s *ToolStream) parseGLM(block string) (ToolCall, bool) {
	name, rest, _ := strings.Cut(block, "<arg_key>")
	name = strings.TrimSpace(name)
	if !functionName.MatchString(name) {
		return ToolCall{}, false
	}
	props := s.paramTypes(name)
	var b strings.Builder
	b.WriteByte('{')
	first := true
	if block != name && strings.Contains(block, "<arg_key>") {
		for _, part := range strings.Split(rest, "<arg_key>") {
			key, after, ok := strings.Cut(part, "</arg_key>")
			if !ok {
				return ToolCall{}, false
			}
			after = strings.TrimSpace(after)
			val, ok := strings.CutPrefix(after, "<arg_value>")
			if !ok {
				return ToolCall{}, false
			}
			val, tail, ok := strings.Cut(val, "</arg_value>")
			if !ok || strings.TrimSpace(tail) != "" {
				return ToolCall{}, false
			}
			kb, _ := json.Marshal(strings.TrimSpace(key))
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.Write(kb)
			b.WriteByte(':')
			b.WriteString(glmValue(val, props[strings.TrimSpace(key)]))
		}
	}
	b.WriteByte('}')
	return ToolCall{Name: name, Arguments: b.String()}, true
}

// glmValue is an <arg_value> as JSON: a string parameter's text as a
// string, anything else as the JSON it holds (text when it holds none).
func glmValue(v, typ string) string {
	if typ != "string" {
		if t := strings.TrimSpace(v); json.Valid([]byte(t)) {
			var c bytes.Buffer
			json.Compact(&c, []byte(t))
			return c.String()
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// functionName is what a function's name may be (OpenAI's rule, with
// the dots and colons some tool sets use).
var functionName = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

// paramTypes maps a tool's parameters to their JSON Schema types; a
// parameter GLM writes bare (a string, an enum of strings) is "string".
func (s *ToolStream) paramTypes(name string) map[string]string {
	out := map[string]string{}
	for _, t := range s.tools {
		if t.Name != name {
			continue
		}
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		json.Unmarshal(t.Parameters, &schema)
		for k, p := range schema.Properties {
			if _, bare := readGLMString(p); bare {
				out[k] = "string"
			}
		}
	}
	return out
}

// stepLlama3: an answer that opens with { (or <|python_tag|>) is held
// whole and is a call if it parses as one; any other answer is text.
func (s *ToolStream) stepLlama3(final bool) (string, []ToolCall) {
	if !s.start {
		out := s.buf
		s.buf = ""
		return out, nil
	}
	t := strings.TrimLeft(s.buf, asciiSpace)
	opens := strings.HasPrefix(t, "{") || strings.HasPrefix(t, pythonTag) || (t != "" && strings.HasPrefix(pythonTag, t))
	if t == "" && !final {
		return "", nil
	}
	if !opens {
		s.start = false
		out := s.buf
		s.buf = ""
		return out, nil
	}
	if !final {
		return "", nil
	}
	s.buf = ""
	var calls []ToolCall
	body := strings.TrimPrefix(t, pythonTag)
	// Several calls may follow one another, separated by ; or newlines.
	dec := json.NewDecoder(strings.NewReader(body))
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			break
		}
		c, ok := parseJSONCall(string(raw), "parameters")
		if !ok {
			return t, nil
		}
		calls = append(calls, c)
		rest := strings.TrimLeft(body[dec.InputOffset():], asciiSpace+";")
		if rest == "" {
			return "", calls
		}
		body = rest
		dec = json.NewDecoder(strings.NewReader(body))
	}
	return t, nil
}

// ToolGrammar is the grammar of an answer that is only tool calls in
// this format: one of the offered tools (only, when set, names the one
// required), arguments matching its parameters' schema, and then the
// end. parallel allows several calls one after another.
func (tf ToolFormat) ToolGrammar(tools []Tool, only string, parallel bool) (*grammar.Grammar, error) {
	b := grammar.NewBuilder()
	var alts []string
	for _, t := range tools {
		if only != "" && t.Name != only {
			continue
		}
		params := t.Parameters
		if len(bytes.TrimSpace(params)) == 0 || string(bytes.TrimSpace(params)) == "null" {
			params = json.RawMessage(`{"type":"object"}`)
		}
		var call string
		switch tf {
		case ToolsGLM:
			args, err := glmArgsRule(b, t.Name, params)
			if err != nil {
				return nil, fmt.Errorf("tool %s: %w", t.Name, err)
			}
			call = grammar.Literal("<tool_call>"+t.Name) + " " + args + " " + grammar.Literal("</tool_call>")
		default:
			args, err := b.Schema("args-"+t.Name, params)
			if err != nil {
				return nil, fmt.Errorf("tool %s: %w", t.Name, err)
			}
			key := "arguments"
			if tf == ToolsLlama3 {
				key = "parameters"
			}
			call = grammar.Literal(`{"name": "`+t.Name+`", "`+key+`": `) + " " + args + ` "}"`
			if tf == ToolsHermes {
				call = grammar.Literal(hermesOpen+"\n") + " " + call + " " + grammar.Literal("\n"+hermesClose)
			}
		}
		alts = append(alts, b.Rule("call-"+t.Name, call))
	}
	if len(alts) == 0 {
		return nil, fmt.Errorf("no tool named %q is offered", only)
	}
	one := b.Rule("call", strings.Join(alts, " | "))
	root := one
	if parallel {
		sep := `"\n"`
		if tf == ToolsLlama3 {
			sep = `"; "`
		}
		root = one + " ( " + sep + " " + one + " )*"
	}
	return b.Grammar(root)
}

// glmArgsRule is GLM's <arg_key>/<arg_value> pairs for a parameters
// schema: its properties in order, the required ones always; string
// values bare (without "<", within the schema's length bounds; a string
// enum as its bare words), the others as JSON.
func glmArgsRule(b *grammar.Builder, name string, params json.RawMessage) (string, error) {
	var schema struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(params, &schema); err != nil {
		return "", err
	}
	props, err := orderedArgs(string(schema.Properties))
	if err != nil && len(schema.Properties) > 0 {
		return "", errors.New("properties must be an object")
	}
	var parts []string
	for _, p := range props {
		value, err := glmValueRule(b, name+"-"+p.key, p.val)
		if err != nil {
			return "", err
		}
		kv := grammar.Literal("<arg_key>"+p.key+"</arg_key><arg_value>") + " " + value + " " + grammar.Literal("</arg_value>")
		required := false
		for _, r := range schema.Required {
			required = required || r == p.key
		}
		if !required {
			kv = "( " + kv + " )?"
		}
		parts = append(parts, kv)
	}
	if len(parts) == 0 {
		return `""`, nil
	}
	return strings.Join(parts, " "), nil
}

// glmString describes a parameter GLM writes bare: a string, or an enum
// of strings.
type glmString struct {
	Type      any      `json:"type"`
	Enum      []any    `json:"enum"`
	MinLength *int     `json:"minLength"`
	MaxLength *int     `json:"maxLength"`
	words     []string // the enum's strings
}

func readGLMString(schema json.RawMessage) (glmString, bool) {
	var s glmString
	if json.Unmarshal(schema, &s) != nil {
		return s, false
	}
	if len(s.Enum) > 0 {
		for _, v := range s.Enum {
			w, ok := v.(string)
			if !ok {
				return s, false
			}
			s.words = append(s.words, w)
		}
		return s, true
	}
	return s, s.Type == "string"
}

func glmValueRule(b *grammar.Builder, hint string, schema json.RawMessage) (string, error) {
	s, bare := readGLMString(schema)
	if !bare {
		return b.Schema("glm-"+hint, schema)
	}
	if len(s.words) > 0 {
		var alts []string
		for _, w := range s.words {
			alts = append(alts, grammar.Literal(w))
		}
		return b.Rule("glm-"+hint, strings.Join(alts, " | ")), nil
	}
	lo, hi := 0, -1
	if s.MinLength != nil {
		lo = *s.MinLength
	}
	if s.MaxLength != nil {
		hi = *s.MaxLength
	}
	rep := fmt.Sprintf("{%d,}", lo)
	if hi >= 0 {
		rep = fmt.Sprintf("{%d,%d}", lo, hi)
	}
	return b.Rule("glm-"+hint, "[^<]"+rep), nil
}
