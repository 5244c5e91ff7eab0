package server

import "github.com/emberllm/ember/server/wire"

// The protocol's types, defined in server/wire (shared with the browser
// engine), under the names the server's API has always used.
type (
	Message     = wire.Message
	WireMessage = wire.ChatMessage
	ModelInfo   = wire.ModelInfo
	Options     = wire.Options
	Stops       = wire.Stops
	Seed        = wire.Seed
	GenStats    = wire.GenStats
	Progress    = wire.Progress
	ServerStats = wire.ServerStats
)

// The protocol's message types.
const (
	TypeGenerate   = wire.TypeGenerate
	TypeCancel     = wire.TypeCancel
	TypeModels     = wire.TypeModels
	TypeStats      = wire.TypeStats
	TypeRegister   = wire.TypeRegister
	TypeRegistered = wire.TypeRegistered
	TypeToken      = wire.TypeToken
	TypeDone       = wire.TypeDone
	TypeError      = wire.TypeError
	TypeProgress   = wire.TypeProgress
)
