package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/chat"
	"github.com/emberllm/ember/engine/sample/grammar"
	"github.com/emberllm/ember/engine/tokenizer"
)

// extras are a request's OpenAI features beyond the sampling options:
// constrained output (response_format, grammar), tools, logit_bias and
// logprobs. They are resolved against the model once it is known (a
// required tool call's grammar is written in the model's own format) and
// run on the local model only: the relay protocol does not carry them.
type extras struct {
	format   *responseFormat
	gbnf     *string
	tools    []toolDef
	choice   string // "none", "auto", "required" or "function"
	named    string // the function tool_choice names
	parallel bool
	bias     map[string]float64
	logprobs bool
	top      int
	n        int

	// resolved by apply
	chatTools []chat.Tool
	tf        chat.ToolFormat
	parse     bool // look for tool calls in the answer
}

// maxChoices bounds n: each choice is a generation of its own (sharing
// the prompt's cache).
const maxChoices = 8

var toolName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// chatExtras reads a chat request's features.
func (body *chatRequest) extras() (*extras, error) {
	x := &extras{format: body.ResponseFormat, gbnf: body.Grammar, tools: body.Tools, bias: body.LogitBias, parallel: true}
	if err := x.choices(body.N); err != nil {
		return nil, err
	}
	for i, t := range body.Tools {
		if t.Type != "function" {
			return nil, invalid("tools[%d].type %q is not function (the only kind of tool)", i, t.Type)
		}
		if !toolName.MatchString(t.Function.Name) {
			return nil, invalid("tools[%d].function.name %q must be 1 to 64 letters, digits, _ or -", i, t.Function.Name)
		}
		if p := bytes.TrimSpace(t.Function.Parameters); len(p) > 0 && string(p) != "null" {
			if p[0] != '{' {
				return nil, invalid("tools[%d].function.parameters must be a JSON Schema object", i)
			}
			// Whatever tool_choice says: a model may call any tool it
			// is shown. What ember cannot constrain to (a pattern ...)
			// is refused only where a call is constrained (apply).
			if _, err := grammar.SchemaGBNF(p); errors.Is(err, grammar.ErrNotSchema) {
				return nil, invalid("tools[%d].function.parameters: %v", i, err)
			}
		}
	}
	x.choice = "none"
	if len(body.Tools) > 0 {
		x.choice = "auto"
	}
	if c := bytes.TrimSpace(body.ToolChoice); len(c) > 0 && string(c) != "null" {
		var s string
		var named struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		switch {
		case json.Unmarshal(c, &s) == nil:
			if s != "none" && s != "auto" && s != "required" {
				return nil, invalid("tool_choice %q is not none, auto or required", s)
			}
			x.choice = s
		case json.Unmarshal(c, &named) == nil && named.Type == "function" && named.Function.Name != "":
			x.choice, x.named = "function", named.Function.Name
		default:
			return nil, invalid(`tool_choice must be "none", "auto", "required" or {"type": "function", "function": {"name": ...}}`)
		}
		if x.choice != "none" && len(body.Tools) == 0 {
			return nil, invalid("tool_choice %s needs tools", c)
		}
		if x.named != "" {
			found := false
			for _, t := range body.Tools {
				found = found || t.Function.Name == x.named
			}
			if !found {
				return nil, invalid("tool_choice names %q, which is not among the tools", x.named)
			}
		}
	}
	if body.ParallelToolCalls != nil {
		x.parallel = *body.ParallelToolCalls
	}
	if body.Logprobs != nil {
		x.logprobs = *body.Logprobs
	}
	if body.TopLogprobs != nil {
		if *body.TopLogprobs < 0 || *body.TopLogprobs > 20 {
			return nil, invalid("top_logprobs %d is outside [0, 20]", *body.TopLogprobs)
		}
		if !x.logprobs {
			return nil, invalid("top_logprobs needs logprobs: true")
		}
		x.top = *body.TopLogprobs
	}
	return x, nil
}

// completionExtras reads a completions request's features.
func (body *completionRequest) extras() (*extras, error) {
	x := &extras{gbnf: body.Grammar, bias: body.LogitBias, choice: "none"}
	if err := x.choices(body.N); err != nil {
		return nil, err
	}
	if body.BestOf != nil && *body.BestOf != x.n {
		return nil, invalid("best_of must equal n: ember returns every choice it makes")
	}
	if body.Suffix != nil && *body.Suffix != "" {
		return nil, invalid("suffix is not supported: ember completes at the end of the prompt only")
	}
	if body.Logprobs != nil {
		if *body.Logprobs < 0 || *body.Logprobs > 5 {
			return nil, invalid("logprobs %d is outside [0, 5]", *body.Logprobs)
		}
		if body.Echo {
			return nil, invalid("echo with logprobs is not supported: ember scores the tokens it generates, not the prompt's")
		}
		x.logprobs, x.top = true, *body.Logprobs
	}
	return x, nil
}

func (x *extras) choices(n *int) error {
	x.n = 1
	if n != nil {
		if *n < 1 || *n > maxChoices {
			return invalid("n %d is outside [1, %d]", *n, maxChoices)
		}
		x.n = *n
	}
	return nil
}

// any reports whether the request uses a feature only the local model has.
func (x *extras) any() bool {
	return (x.format != nil && x.format.Type != "text") || x.gbnf != nil || x.choice != "none" || len(x.bias) > 0 || x.logprobs
}

// apply resolves the features against the model g and writes them into req.
func (x *extras) apply(g generator, req *engine.Request, vocab int) error {
	if x == nil {
		return nil
	}
	l, ok := g.(*local)
	if !ok {
		if x.any() {
			return invalid("response_format, grammar, tools, logit_bias and logprobs run on the server's own model only, not on a browser engine")
		}
		return nil
	}
	if len(x.bias) > 0 {
		req.LogitBias = map[int32]float32{}
		for k, v := range x.bias {
			id, err := strconv.Atoi(k)
			if err != nil || id < 0 || id >= vocab {
				return invalid("logit_bias key %q is not a token id in [0, %d)", k, vocab)
			}
			if !(v >= -100 && v <= 100) {
				return invalid("logit_bias value %v for token %s is outside [-100, 100]", v, k)
			}
			req.LogitBias[int32(id)] = float32(v)
		}
	}
	req.Logprobs, req.TopLogprobs = x.logprobs, x.top
	var g2 *grammar.Grammar
	var err error
	if f := x.format; f != nil {
		switch f.Type {
		case "text":
		case "json_object":
			g2 = grammar.JSONObject()
		case "json_schema":
			if f.JSONSchema == nil || len(bytes.TrimSpace(f.JSONSchema.Schema)) == 0 {
				return invalid("response_format json_schema needs json_schema.schema")
			}
			if g2, err = grammar.FromJSONSchema(f.JSONSchema.Schema); err != nil {
				return invalid("response_format: %v", err)
			}
		default:
			return invalid("response_format type %q is not text, json_object or json_schema", f.Type)
		}
	}
	if x.gbnf != nil {
		if g2 != nil {
			return invalid("give response_format or grammar, not both")
		}
		if g2, err = grammar.Parse(*x.gbnf); err != nil {
			return invalid("%v", err)
		}
	}
	if x.choice != "none" {
		if g2 != nil {
			return invalid("tools cannot be combined with response_format or grammar (use tool_choice none)")
		}
		x.tf = l.eng.Chat.ToolFormat()
		x.parse = true
		req.Tools, _ = json.Marshal(x.tools)
		for _, t := range x.tools {
			x.chatTools = append(x.chatTools, chat.Tool{Name: t.Function.Name, Parameters: t.Function.Parameters})
		}
		if x.choice == "required" || x.choice == "function" {
			if g2, err = x.tf.ToolGrammar(x.chatTools, x.named, x.parallel && x.choice == "required"); err != nil {
				return invalid("tools: %v", err)
			}
		}
	}
	if g2 != nil {
		// A constrained answer is the answer: a reasoning model is asked
		// not to think first.
		if req.Think != nil && *req.Think {
			return invalid("think cannot be combined with a constrained answer (response_format, grammar or a required tool call)")
		}
		off := false
		req.Think = &off
		req.Grammar = g2
	}
	return nil
}

// warn names the OpenAI fields a request gave that ember ignores, in a
// Warning header (RFC 7234's 299, "miscellaneous persistent warning").
func warn(w http.ResponseWriter, fields []string) {
	if len(fields) > 0 {
		w.Header().Set("Warning", fmt.Sprintf(`299 ember "ignored fields, which change nothing ember returns: %s"`, strings.Join(fields, ", ")))
	}
}

// refused names the OpenAI fields ember cannot honour.
func (body *chatRequest) refused() error {
	switch {
	case body.Audio != nil:
		return invalid("audio output is not supported: ember's models write text")
	case body.Functions != nil || body.FunctionCall != nil:
		return invalid("functions and function_call are deprecated by OpenAI: use tools and tool_choice")
	case body.WebSearchOptions != nil:
		return invalid("web_search_options is not supported: ember does not search the web")
	}
	if m := bytes.TrimSpace(body.Modalities); len(m) > 0 && string(m) != "null" {
		var list []string
		if json.Unmarshal(m, &list) != nil || len(list) != 1 || list[0] != "text" {
			return invalid(`modalities must be ["text"]: ember's models write text`)
		}
	}
	return nil
}

// callsOut are parsed tool calls as OpenAI returns them, with fresh ids;
// next numbers them across a stream (nil: a whole answer).
func callsOut(calls []chat.ToolCall, next *int) []toolCallOut {
	var out []toolCallOut
	for _, c := range calls {
		var o toolCallOut
		o.ID, o.Type = newID("call_"), "function"
		o.Function.Name, o.Function.Arguments = c.Name, c.Arguments
		if next != nil {
			i := *next
			o.Index = &i
			*next++
		}
		out = append(out, o)
	}
	return out
}

// bytesOf is a piece's bytes as OpenAI lists them.
func bytesOf(p string) []int {
	out := make([]int, len(p))
	for i := 0; i < len(p); i++ {
		out[i] = int(p[i])
	}
	return out
}

// chatLogprobs are tokens' log-probabilities in chat's shape. A piece
// that is not whole UTF-8 is written with U+FFFD; its bytes are exact.
func (x *extras) chatLogprobs(lps []engine.TokenLogprob) *chatLogprobs {
	out := &chatLogprobs{Content: []tokenLogprob{}}
	for _, lp := range lps {
		e := tokenLogprob{Token: validText(lp.Piece), Logprob: float64(lp.Logprob), Bytes: bytesOf(lp.Piece), TopLogprobs: []topLogprob{}}
		for _, t := range lp.Top {
			e.TopLogprobs = append(e.TopLogprobs, topLogprob{Token: validText(t.Piece), Logprob: float64(t.Logprob), Bytes: bytesOf(t.Piece)})
		}
		out.Content = append(out.Content, e)
	}
	return out
}

// textOffsets follows a choice's text through its tokens' bytes as the
// engine's tokenizer.Decoder turns them into text: of holds where each
// token's text starts, at how long the text is so far, in characters
// (Unicode code points, as OpenAI's text_offset counts). Counting bytes
// instead would point past the text the client gets, where bytes that
// form no character are one U+FFFD. A token whose first byte completes a
// character held back from earlier tokens starts at that character.
// (Stop strings and a think block hold text back and let it out where it
// was. A stop string is cut from the text, but its tokens were generated
// and keep their logprobs: their offsets, where their text would have
// been, point past the text's end, whole and streamed alike, since a
// stream sends them before it knows.)
type textOffsets struct {
	of   []int
	at   int
	held []byte // the bytes the Decoder holds back: a character's start
}

func (o *textOffsets) token(piece string) {
	start := o.at
	pending := append(o.held, piece...)
	if len(o.held) > 0 && len(piece) > 0 {
		// The held bytes start a character this piece completes (the
		// token starts inside it), or form none: then they are one
		// U+FFFD, which the piece's first byte joins if it is no
		// character's start either.
		if r, size := utf8.DecodeRune(pending); r == utf8.RuneError && size == 1 {
			if r, size := utf8.DecodeRuneInString(piece); !(r == utf8.RuneError && size == 1) || tokenizer.IncompleteTail([]byte(piece)) == len(piece) {
				start++
			}
		}
	}
	o.of = append(o.of, start)
	keep := tokenizer.IncompleteTail(pending)
	o.at += utf8.RuneCountInString(strings.ToValidUTF8(string(pending[:len(pending)-keep]), "\uFFFD"))
	o.held = append(o.held[:0], pending[len(pending)-keep:]...)
}

// completionLogprobsOf are tokens' log-probabilities in the completions
// shape; offsets follows the choice's text, token by token.
func completionLogprobsOf(lps []engine.TokenLogprob, offsets *textOffsets) *completionLogprobs {
	out := &completionLogprobs{Tokens: []string{}, TokenLogprobs: []float64{}, TopLogprobs: []map[string]float64{}, TextOffset: []int{}}
	for _, lp := range lps {
		out.Tokens = append(out.Tokens, validText(lp.Piece))
		out.TokenLogprobs = append(out.TokenLogprobs, float64(lp.Logprob))
		top := map[string]float64{}
		for _, t := range lp.Top {
			top[validText(t.Piece)] = float64(t.Logprob)
		}
		out.TopLogprobs = append(out.TopLogprobs, top)
		offsets.token(lp.Piece)
		out.TextOffset = append(out.TextOffset, offsets.of[len(offsets.of)-1])
	}
	return out
}

func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
