// Package web holds the static pages the server serves, embedded in the
// binary so that `ember serve` needs no files beside it. It is a package
// of its own because go:embed only reaches files under the embedding
// package's folder.
package web

import "embed"

// FS holds index.html, the chat page served at /.
//
//go:embed index.html
var FS embed.FS
