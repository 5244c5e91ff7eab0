package chat

import (
	"encoding/json"
	"time"
)

// Message is one turn of a conversation. Role is "system", "user",
// "assistant" (or "tool"); ReasoningContent is an assistant's earlier
// thinking, which templates that keep it put back between think tags.
// ToolCalls are the calls an assistant made; a "tool" message answers the
// call ToolCallID (of the function Name).
type Message struct {
	Role             string
	Content          string
	ReasoningContent string
	ToolCalls        []ToolCall
	ToolCallID       string
	Name             string
}

// Options shape one rendering.
type Options struct {
	// AddGenerationPrompt ends the prompt with the assistant's opening tag,
	// so the model writes the next assistant turn.
	AddGenerationPrompt bool
	// Thinking switches reasoning on or off for models that have it; nil
	// keeps the model's default (on, as in llama.cpp).
	Thinking *bool
	// Raw sends the message contents untouched, concatenated, with no
	// template or preset around them.
	Raw bool
	// Tools is a JSON array of tool definitions (OpenAI style), passed to
	// templates as `tools` only when it holds at least one tool, as
	// llama.cpp does. Key order is kept: templates print it with tojson.
	Tools json.RawMessage
	// Now is the clock strftime_now reads; the zero time means time.Now().
	Now time.Time
}

// thinkingOn resolves Options.Thinking against the model default.
func (o Options) thinkingOn() bool {
	if o.Thinking == nil {
		return true
	}
	return *o.Thinking
}

// Bool returns a pointer to b, for Options.Thinking.
func Bool(b bool) *bool { return &b }
