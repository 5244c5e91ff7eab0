package registry

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Resolve turns a --model argument into a local GGUF path. In order:
//   - an http:// or https:// URL is downloaded into the cache (or found
//     there), and checked against the registry when it is a registry URL;
//   - an existing file is used as it is;
//   - a registry name is looked up and fetched like its URL.
//
// Progress goes to o.Log. It is the one entry point the CLI and the server
// use for every command that takes a model.
func Resolve(ctx context.Context, ref string, o Options) (string, error) {
	if ref == "" {
		return "", errors.New("no model given: pass a registry name, a GGUF file or a URL")
	}
	if IsURL(ref) {
		m, _ := ModelOf(ref)
		return Get(ctx, m, o)
	}
	st, err := os.Stat(ref)
	if err == nil {
		if st.IsDir() {
			return "", fmt.Errorf("%s is a directory, not a GGUF file", ref)
		}
		return ref, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if m, ok := Lookup(ref); ok {
		return Get(ctx, m, o)
	}
	if strings.ContainsRune(ref, filepath.Separator) || strings.HasSuffix(strings.ToLower(ref), ".gguf") {
		return "", err // the OS's own "no such file or directory"
	}
	return "", &kindError{ErrUnknownModel, fmt.Sprintf("%q is not a file, a URL or a known model name; known names: %s",
		ref, strings.Join(Names(), ", "))}
}

// ModelOf is the registry entry a name or URL stands for. A URL outside the
// registry gives an entry with only the URL; anything else gives false.
func ModelOf(ref string) (Model, bool) {
	if IsURL(ref) {
		if m, ok := ByURL(ref); ok {
			return m, true
		}
		return Model{URL: ref}, true
	}
	return Lookup(ref)
}

// IsURL tells a download address from a name or a path.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// Get returns the cached file of a model, downloading it first if needed.
func Get(ctx context.Context, m Model, o Options) (string, error) {
	if p, _, err := Cached(m); err != nil || p != "" {
		return p, err
	}
	final, err := Path(m.URL)
	if err != nil {
		return "", err
	}
	newProgress(o.Log, m.label()).note("%s: downloading %s\n  into %s", m.label(), m.URL, final)
	return Fetch(ctx, m, o)
}
