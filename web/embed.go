// Package web holds the page the server serves at / and that `make web`
// writes out for any static host: index.html and its scripts, embedded in
// the binary so that `ember serve` needs no files beside it, and, in a
// build made with `make` (the emberweb tag), the engine the page runs in
// a tab: cmd/wasm's build and Go's wasm_exec.js (Engine). It is a package
// of its own because go:embed only reaches files under the embedding
// package's folder.
package web

import (
	"embed"
	"io/fs"
)

// FS holds the page: index.html, app.js (the chat), ember.js
// (window.ember, the engines' API) and worker.js (the engine's worker).
//
//go:embed index.html app.js ember.js worker.js
var FS embed.FS

// Engine returns the engine's files, ember.wasm.gz (cmd/wasm's build,
// gzipped) and wasm_exec.js (the Go runtime's glue of the same Go), or nil
// in a build without them: `go build` alone makes a server whose page
// talks to the server's model only; `make build` embeds them.
func Engine() fs.FS { return engine }
