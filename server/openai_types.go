package server

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/emberllm/ember/engine/chat"
	"github.com/emberllm/ember/server/wire"
)

// The OpenAI request and response shapes ember speaks. Requests are
// decoded strictly: a field ember does not know is an error, not ignored.

// commonRequest holds the fields both generation endpoints take.
type commonRequest struct {
	Model         string         `json:"model"`
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options"`
	N             *int           `json:"n"`
	User          string         `json:"user"`
	Options
}

func (c *commonRequest) common() *commonRequest { return c }

// includeUsage says whether a stream ends with a usage chunk.
func (c *commonRequest) includeUsage() bool {
	return c.StreamOptions != nil && c.StreamOptions.IncludeUsage
}

type chatRequest struct {
	commonRequest
	Messages            []chatMessage `json:"messages"`
	MaxCompletionTokens *int          `json:"max_completion_tokens"`
	// ReasoningEffort "none" asks a reasoning model not to think; any
	// other value lets it.
	ReasoningEffort *string `json:"reasoning_effort"`
}

type completionRequest struct {
	commonRequest
	Prompt promptField `json:"prompt"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// chatMessage is one message; content is a string or an array of text
// parts, as OpenAI allows.
type chatMessage struct {
	Role             string      `json:"role"`
	Content          textContent `json:"content"`
	Name             string      `json:"name,omitempty"`
	ReasoningContent string      `json:"reasoning_content,omitempty"`
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
		out[i] = chat.Message{Role: role, Content: string(m.Content), ReasoningContent: m.ReasoningContent}
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
	Index        int         `json:"index"`
	Message      *outMessage `json:"message,omitempty"`
	Delta        *outMessage `json:"delta,omitempty"`
	FinishReason *string     `json:"finish_reason"`
	Logprobs     *struct{}   `json:"logprobs"`
}

type outMessage struct {
	Role             string  `json:"role,omitempty"`
	Content          *string `json:"content,omitempty"`
	ReasoningContent *string `json:"reasoning_content,omitempty"`
}

type completionChoice struct {
	Index        int       `json:"index"`
	Text         string    `json:"text"`
	FinishReason *string   `json:"finish_reason"`
	Logprobs     *struct{} `json:"logprobs"`
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
