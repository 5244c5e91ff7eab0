// Package server serves a loaded model over the network: the
// OpenAI-compatible HTTP API (/v1/chat/completions, /v1/completions,
// /v1/models), ember's JSON-over-WebSocket protocol (/ws, written down in
// docs/protocol.md) with its relay to browser engines, and the web chat
// page (/).
//
// It is a top-level package, not part of engine/, because it is not engine
// code: it drives the engine only through its public Session API and adds
// network concerns (authentication, origins, bounded bodies, queueing
// requests onto a fixed number of sessions, relaying). engine/ holds what
// the CLI, this server and the browser entry all share, and stays free of
// net/http and WebSocket libraries.
package server
