// Package registry turns what a user passes as --model into a local GGUF
// file: a registry name (llama3.2:1b, qwen3:8b-q8, stories260k), a local
// path, or an http(s) URL. Names map to GGUF URLs on Hugging Face; URLs are
// downloaded once into a cache and reused offline from then on.
//
// It is for the native CLI and server only: the browser keeps models in its
// own store, so nothing here is built for GOOS=js.
//
// # Cache layout
//
// A URL's file lives at
//
//	<cache>/<md5 hex of the URL>.gguf
//
// where <cache> is $EMBER_CACHE when set, and otherwise the user's cache
// directory followed by "ember": $XDG_CACHE_HOME/ember or ~/.cache/ember on
// Linux, ~/Library/Caches/ember on macOS (os.UserCacheDir). Naming files by
// the MD5 of their URL is the layout users of tinygrad already fill by hand
// (tinygrad/downloads/<md5>), so a file copied in that way is found: the
// bare <md5> name is accepted beside <md5>.gguf, and without $EMBER_CACHE
// the tinygrad download directory is looked at too (read only).
//
// A download in progress is <md5>.gguf.part (never taken for a model: only
// a complete, verified file is renamed to <md5>.gguf), with its HTTP
// validator in <md5>.gguf.etag so a resume never splices two versions of a
// file, and <md5>.gguf.lock, the lock file that keeps two processes from
// writing the same download at once (deleted when the download ends). A
// finished download keeps its URL in <md5>.url, so that `ember ls` can say
// where a file pulled by URL came from. A download whose first bytes are
// not the GGUF magic (an HTML error page, say) is stopped and dropped.
package registry
