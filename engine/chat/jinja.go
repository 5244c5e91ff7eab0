package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ardanlabs/jinja"
)

// template is a compiled GGUF chat template.
type template struct {
	src string
	t   *jinja.Template
}

func compileTemplate(src string) (_ *template, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("chat template: compiler failed: %v", p)
		}
	}()
	t, err := jinja.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("chat template: %w", err)
	}
	return &template{src: src, t: t}, nil
}

// render runs the template with the variables llama.cpp passes
// (common_chat_template_direct_apply): add_generation_prompt only when true
// and tools only when there are some, so templates that test `is defined`
// behave as they do there.
func (t *template) render(msgs []Message, opts Options, bos, eos string) (out string, err error) {
	ctx := map[string]jinja.Value{
		"messages":        messagesValue(msgs),
		"bos_token":       jinja.NewString(bos),
		"eos_token":       jinja.NewString(eos),
		"enable_thinking": jinja.NewBool(opts.thinkingOn()),
	}
	if opts.AddGenerationPrompt {
		ctx["add_generation_prompt"] = jinja.NewBool(true)
	}
	if len(bytes.TrimSpace(opts.Tools)) > 0 {
		tools, err := jsonValue(opts.Tools)
		if err != nil {
			return "", fmt.Errorf("chat: tools: %w", err)
		}
		if !tools.IsList() {
			return "", errors.New("chat: tools must be a JSON array")
		}
		if tools.AsList().Len() > 0 {
			ctx["tools"] = tools
		}
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	ctx["strftime_now"] = jinja.NewCallable("strftime_now", func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
		if len(args) != 1 || !args[0].IsString() {
			return jinja.Undefined(), errors.New("strftime_now expects one format string")
		}
		return jinja.NewString(strftime(now, args[0].AsString())), nil
	})
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("chat template: renderer failed: %v", p)
		}
	}()
	out, err = t.t.RenderValues(ctx)
	if err != nil {
		return "", fmt.Errorf("chat template: %w", err)
	}
	return out, nil
}

// messagesValue builds the messages list with keys in the order HF's
// renderer sees them; reasoning_content, tool_calls, tool_call_id and name
// are present only when set, because templates test `is defined` on them.
// A call's arguments go in as the JSON object they hold (templates
// iterate them with .items() or print them with tojson), as llama.cpp
// passes them.
func messagesValue(msgs []Message) jinja.Value {
	items := make([]jinja.Value, len(msgs))
	for i, m := range msgs {
		d := jinja.NewDict()
		dd := d.AsDict()
		dd.Set("role", jinja.NewString(m.Role))
		dd.Set("content", jinja.NewString(m.Content))
		if m.ReasoningContent != "" {
			dd.Set("reasoning_content", jinja.NewString(m.ReasoningContent))
		}
		if len(m.ToolCalls) > 0 {
			calls := make([]jinja.Value, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				fn := jinja.NewDict()
				fn.AsDict().Set("name", jinja.NewString(c.Name))
				args, err := jsonValue([]byte(c.Arguments))
				if err != nil || !args.IsDict() {
					args = jinja.NewString(c.Arguments)
				}
				fn.AsDict().Set("arguments", args)
				call := jinja.NewDict()
				if c.ID != "" {
					call.AsDict().Set("id", jinja.NewString(c.ID))
				}
				call.AsDict().Set("type", jinja.NewString("function"))
				call.AsDict().Set("function", fn)
				calls[j] = call
			}
			dd.Set("tool_calls", jinja.NewList(calls))
		}
		if m.ToolCallID != "" {
			dd.Set("tool_call_id", jinja.NewString(m.ToolCallID))
		}
		if m.Name != "" {
			dd.Set("name", jinja.NewString(m.Name))
		}
		items[i] = d
	}
	return jinja.NewList(items)
}

// jsonValue decodes JSON into template values keeping object key order.
func jsonValue(raw []byte) (jinja.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return jinja.Undefined(), err
	}
	if _, err := dec.Token(); err != io.EOF {
		return jinja.Undefined(), errors.New("trailing data after JSON value")
	}
	return v, nil
}

// maxJSONDepth bounds nesting so hostile input cannot exhaust the stack.
const maxJSONDepth = 64

func decodeValue(dec *json.Decoder, depth int) (jinja.Value, error) {
	if depth > maxJSONDepth {
		return jinja.Undefined(), fmt.Errorf("JSON nested deeper than %d", maxJSONDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return jinja.Undefined(), err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			var items []jinja.Value
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return jinja.Undefined(), err
				}
				items = append(items, v)
			}
			if _, err := dec.Token(); err != nil {
				return jinja.Undefined(), err
			}
			if items == nil {
				items = []jinja.Value{}
			}
			return jinja.NewList(items), nil
		case '{':
			d := jinja.NewDict()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return jinja.Undefined(), err
				}
				k, ok := kt.(string)
				if !ok {
					return jinja.Undefined(), fmt.Errorf("object key %v is not a string", kt)
				}
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return jinja.Undefined(), err
				}
				d.AsDict().Set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return jinja.Undefined(), err
			}
			return d, nil
		}
		return jinja.Undefined(), fmt.Errorf("unexpected %v in JSON", t)
	case string:
		return jinja.NewString(t), nil
	case bool:
		return jinja.NewBool(t), nil
	case nil:
		return jinja.None(), nil
	case json.Number:
		return jinja.FromGoValue(t), nil
	}
	return jinja.Undefined(), fmt.Errorf("unexpected JSON token %v", tok)
}

// strftime formats t with the C/Python directives chat templates use
// (Llama 3.2 writes "%d %b %Y", gpt-oss "%Y-%m-%d"); an unknown directive is
// copied as it is.
func strftime(t time.Time, format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'Y':
			fmt.Fprintf(&b, "%d", t.Year())
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			fmt.Fprintf(&b, "%02d", h)
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'b':
			b.WriteString(t.Month().String()[:3])
		case 'B':
			b.WriteString(t.Month().String())
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
