package server

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
	Messages []WireMessage `json:"messages,omitempty"`
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

// WireMessage is one chat message on the wire.
type WireMessage struct {
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
