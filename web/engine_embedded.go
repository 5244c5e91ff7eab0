//go:build emberweb

package web

import (
	"embed"
	"io/fs"
)

// dist is what `make web` builds into web/dist.
//
//go:embed dist/ember.wasm.gz dist/wasm_exec.js
var dist embed.FS

var engine = func() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err)
	}
	return sub
}()
