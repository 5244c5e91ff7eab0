// Package wire is the WebSocket protocol of docs/protocol.md, which the
// server, its drivers (ember remote, the chat page) and the browser
// engine in a tab all speak: the messages, the generation options with
// their ranges and the stats a generation reports. It is a package of its
// own so the browser engine (cmd/wasm) takes the protocol without the
// server around it.
package wire

import (
	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/chat"
)

// Message is every message of the WebSocket protocol, in both directions
// (docs/protocol.md is its description). Type says which fields matter;
// the rest are left out. One struct keeps decoding strict: a field that no
// message has is an error.
type Message struct {
	Type string `json:"type"`
	ID   string `json:"id,omitempty"`

	// generate (client -> server, and server -> browser engine)
	Model    string        `json:"model,omitempty"`
	Prompt   string        `json:"prompt,omitempty"`
	Messages []ChatMessage `json:"messages,omitempty"`
	Raw      bool          `json:"raw,omitempty"`
	Options  *Options      `json:"options,omitempty"`

	// token
	Text      string `json:"text,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
	Token     *int32 `json:"token,omitempty"`

	// done
	Stats *GenStats `json:"stats,omitempty"`

	// error
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`

	// progress
	Progress *Progress `json:"progress,omitempty"`

	// models (answer), register (request)
	Models []ModelInfo `json:"models,omitempty"`

	// stats (answer)
	Server *ServerStats `json:"server,omitempty"`
}

// Message types.
const (
	TypeGenerate   = "generate"
	TypeCancel     = "cancel"
	TypeModels     = "models"
	TypeStats      = "stats"
	TypeRegister   = "register"
	TypeRegistered = "registered"
	TypeToken      = "token"
	TypeDone       = "done"
	TypeError      = "error"
	TypeProgress   = "progress"
)

// ChatMessage is one chat message on the wire.
type ChatMessage struct {
	Role             string `json:"role"`
	Content          string `json:"content"`
	ReasoningContent string `json:"reasoning_content,omitempty"`
}

// ModelInfo describes a model a server or browser engine serves. Context
// and Vocab bound the options of requests relayed to it.
type ModelInfo struct {
	ID      string `json:"id"`
	OwnedBy string `json:"owned_by,omitempty"`
	Context int    `json:"context,omitempty"`
	Vocab   int    `json:"vocab,omitempty"`
}

// Roles maps the roles a request may give a message to the chat
// template's: OpenAI's developer is the system.
var Roles = map[string]string{"system": "system", "developer": "system", "user": "user", "assistant": "assistant", "tool": "tool"}

// Request turns a generate message into an engine request (its options
// apart: Options.Apply).
func (m *Message) Request() (engine.Request, error) {
	req := engine.Request{Prompt: m.Prompt, Raw: m.Raw}
	if len(m.Messages) > 0 {
		if m.Prompt != "" {
			return req, invalid("give messages or a prompt, not both")
		}
		for i, wm := range m.Messages {
			if _, ok := Roles[wm.Role]; !ok {
				return req, invalid("messages[%d].role %q is not one of system, developer, user, assistant, tool", i, wm.Role)
			}
			req.Messages = append(req.Messages, chat.Message{Role: Roles[wm.Role], Content: wm.Content, ReasoningContent: wm.ReasoningContent})
		}
		if m.Raw {
			return req, invalid("a raw request takes a prompt, not messages")
		}
	}
	return req, nil
}
