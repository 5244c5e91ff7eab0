//go:build !emberweb

package web

import "io/fs"

// engine is nil: this build has no engine for a tab (make build embeds
// one).
var engine fs.FS
