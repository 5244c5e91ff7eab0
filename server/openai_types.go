package server

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/emberllm/ember/engine/chat"
	"github.com/emberllm/ember/server/wire"
)

// The OpenAI request and response shapes ember speaks. Requests are
// decoded strictly: a field ember does not know is an error, not ignored.
// Fields OpenAI defines that change nothing ember returns (store,
// metadata, service_tier ...) are accepted and named in a Warning header;
// fields that would change it in ways ember cannot honour (audio, web
// search) are refused with a reason.

// commonRequest holds the fields both generation endpoints take.
type commonRequest struct {
	Model         string             `json:"model"`
	Stream        bool               `json:"stream"`
	StreamOptions *streamOptions     `json:"stream_options"`
	N             *int               `json:"n"`
	LogitBias     map[string]float64 `json:"logit_bias"`
	// Grammar is a GBNF grammar the output must follow (ember's and
	// llama.cpp's extension).
	Grammar *string `json:"grammar"`
	Options
	// Accepted and ignored: they change nothing ember returns.
	User             json.RawMessage `json:"user"`
	Store            json.RawMessage `json:"store"`
	Metadata         json.RawMessage `json:"metadata"`
	ServiceTier      json.RawMessage `json:"service_tier"`
	PromptCacheKey   json.RawMessage `json:"prompt_cache_key"`
	SafetyIdentifier json.RawMessage `json:"safety_identifier"`
}

// includeUsage says whether a stream ends with a usage chunk.
func (c *commonRequest) includeUsage() bool {
	return c.StreamOptions != nil && c.StreamOptions.IncludeUsage
}

// ignoredFields names the fields given that ember accepts and ignores.
func ignoredFields(fields map[string]json.RawMessage) []string {
	var out []string
	for name, v := range fields {
		if v != nil {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func (c *commonRequest) ignored() map[string]json.RawMessage {
	m := map[string]json.RawMessage{"user": c.User, "store": c.Store, "metadata": c.Metadata, "service_tier": c.ServiceTier,
		"prompt_cache_key": c.PromptCacheKey, "safety_identifier": c.SafetyIdentifier}
	if c.StreamOptions != nil && c.StreamOptions.IncludeObfuscation != nil {
		m["stream_options.include_obfuscation"] = json.RawMessage("true")
	}
	return m
}

type chatRequest struct {
	commonRequest
	Messages            []chatMessage `json:"messages"`
	MaxCompletionTokens *int          `json:"max_completion_tokens"`
	// ReasoningEffort "none" asks a reasoning model not to think; any
	// other value lets it.
	ReasoningEffort   *string         `json:"reasoning_effort"`
	ResponseFormat    *responseFormat `json:"response_format"`
	Tools             []toolDef       `json:"tools"`
	ToolChoice        json.RawMessage `json:"tool_choice"`
	ParallelToolCalls *bool           `json:"parallel_tool_calls"`
	Logprobs          *bool           `json:"logprobs"`
	TopLogprobs       *int            `json:"top_logprobs"`
	// Accepted and ignored.
	Modalities json.RawMessage `json:"modalities"`
	Verbosity  json.RawMessage `json:"verbosity"`
	Prediction json.RawMessage `json:"prediction"`
	// Refused with a reason.
	Audio            json.RawMessage `json:"audio"`
	Functions        json.RawMessage `json:"functions"`
	FunctionCall     json.RawMessage `json:"function_call"`
	WebSearchOptions json.RawMessage `json:"web_search_options"`
}

type completionRequest struct {
	commonRequest
	Prompt   promptField `json:"prompt"`
	Echo     bool        `json:"echo"`
	Logprobs *int        `json:"logprobs"`
	Suffix   *string     `json:"suffix"`
	BestOf   *int        `json:"best_of"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
	// IncludeObfuscation pads chunks against side channels on OpenAI's
	// side; ember's streams are not padded.
	IncludeObfuscation *bool `json:"include_obfuscation"`
}

// responseFormat is response_format: text, json_object or json_schema.
type responseFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
		Strict      *bool           `json:"strict"`
	} `json:"json_schema"`
}

// toolDef is one tool of a request.
type toolDef struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		Strict      *bool           `json:"strict"`
	} `json:"function"`
}

// chatMessage is one message; content is a string or an array of text
// parts, as OpenAI allows, or null (an assistant message with tool calls).
type chatMessage struct {
	Role             string       `json:"role"`
	Content          textContent  `json:"content"`
	Name             string       `json:"name,omitempty"`
	ReasoningContent string       `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCallIn `json:"tool_calls"`
	ToolCallID       string       `json:"tool_call_id"`
	Refusal          *string      `json:"refusal"`
}

type toolCallIn struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type textContent string

func (t *textContent) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*t = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = textContent(s)
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("content must be a string or an array of text parts")
	}
	var sb strings.Builder
	for _, p := range parts {
		if p.Type != "text" {
			return fmt.Errorf("content part type %q is not supported (only text)", p.Type)
		}
		sb.WriteString(p.Text)
	}
	*t = textContent(sb.String())
	return nil
}

// promptField is the completions prompt: a string or an array of one.
type promptField string

func (p *promptField) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*p = promptField(s)
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil || len(many) != 1 {
		return fmt.Errorf("prompt must be a string or an array of exactly one string")
	}
	*p = promptField(many[0])
	return nil
}

// messages converts and checks a conversation.
func messages(in []chatMessage) ([]chat.Message, error) {
	if len(in) == 0 {
		return nil, invalid("messages must hold at least one message")
	}
	out := make([]chat.Message, len(in))
	for i, m := range in {
		role, ok := wire.Roles[m.Role]
		if !ok {
			return nil, invalid("messages[%d].role %q is not one of system, developer, user, assistant, tool", i, m.Role)
		}
		cm := chat.Message{Role: role, Content: string(m.Content), ReasoningContent: m.ReasoningContent, ToolCallID: m.ToolCallID, Name: m.Name}
		for j, c := range m.ToolCalls {
			if role != "assistant" {
				return nil, invalid("messages[%d]: only an assistant message has tool_calls", i)
			}
			if c.Type != "" && c.Type != "function" {
				return nil, invalid("messages[%d].tool_calls[%d].type %q is not function", i, j, c.Type)
			}
			var args map[string]json.RawMessage
			if c.Function.Arguments != "" && json.Unmarshal([]byte(c.Function.Arguments), &args) != nil {
				return nil, invalid("messages[%d].tool_calls[%d].function.arguments must be a JSON object's text", i, j)
			}
			cm.ToolCalls = append(cm.ToolCalls, chat.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		if role == "tool" && m.ToolCallID == "" {
			return nil, invalid("messages[%d]: a tool message needs tool_call_id", i)
		}
		out[i] = cm
	}
	return out, nil
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// response is a chat or text completion, whole or one chunk of a stream.
type response[C any] struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []C    `json:"choices"`
	Usage   *usage `json:"usage,omitempty"`
}

type (
	chatResponse       = response[chatChoice]
	completionResponse = response[completionChoice]
)

type chatChoice struct {
	Index        int           `json:"index"`
	Message      *wholeMessage `json:"message,omitempty"`
	Delta        *outMessage   `json:"delta,omitempty"`
	FinishReason *string       `json:"finish_reason"`
	Logprobs     *chatLogprobs `json:"logprobs"`
}

// outMessage is an answer (message) or a piece of one (delta). A whole
// answer's content is null when it is only tool calls.
type outMessage struct {
	Role             string        `json:"role,omitempty"`
	Content          *string       `json:"content,omitempty"`
	ReasoningContent *string       `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCallOut `json:"tool_calls,omitempty"`
	Refusal          *string       `json:"refusal,omitempty"`
}

// wholeMessage marshals content as null, not absent, when it is nil.
type wholeMessage struct {
	Role             string        `json:"role"`
	Content          *string       `json:"content"`
	ReasoningContent *string       `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCallOut `json:"tool_calls,omitempty"`
	Refusal          *string       `json:"refusal"`
}

type toolCallOut struct {
	Index    *int   `json:"index,omitempty"` // in stream deltas
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// chatLogprobs is a chat choice's logprobs: one entry per token.
type chatLogprobs struct {
	Content []tokenLogprob `json:"content"`
	Refusal []tokenLogprob `json:"refusal"`
}

type tokenLogprob struct {
	Token       string       `json:"token"`
	Logprob     float64      `json:"logprob"`
	Bytes       []int        `json:"bytes"`
	TopLogprobs []topLogprob `json:"top_logprobs"`
}

// topLogprob is one of a token's alternatives: OpenAI's carry no
// top_logprobs of their own (not even null).
type topLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
	Bytes   []int   `json:"bytes"`
}

type completionChoice struct {
	Index        int                 `json:"index"`
	Text         string              `json:"text"`
	FinishReason *string             `json:"finish_reason"`
	Logprobs     *completionLogprobs `json:"logprobs"`
}

// completionLogprobs is the legacy completions logprobs shape.
type completionLogprobs struct {
	Tokens        []string             `json:"tokens"`
	TokenLogprobs []float64            `json:"token_logprobs"`
	TopLogprobs   []map[string]float64 `json:"top_logprobs"`
	TextOffset    []int                `json:"text_offset"`
}

type modelObject struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

type modelList struct {
	Object string        `json:"object"`
	Data   []modelObject `json:"data"`
}
