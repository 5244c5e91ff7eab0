package registry

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CacheEnv names the environment variable that moves the cache.
const CacheEnv = "EMBER_CACHE"

// CacheDir is the directory downloads go to: $EMBER_CACHE, or ember inside
// the user's cache directory.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set %s): %w", CacheEnv, err)
	}
	return filepath.Join(base, "ember"), nil
}

// Key is the cache file stem of a URL: the MD5 hex of the URL's text, as
// tinygrad names its downloads, so hand-filled caches carry over.
func Key(url string) string {
	sum := md5.Sum([]byte(url))
	return hex.EncodeToString(sum[:])
}

// Path is where a URL's file is (or will be) in the cache.
func Path(url string) (string, error) {
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, Key(url)+".gguf"), nil
}

// candidates are the places a URL's file may already be, best first: ember's
// own name, the bare MD5 name in the same directory, and (only without an
// explicit $EMBER_CACHE, which must stay self-contained for tests and
// scripts) tinygrad's download directory.
func candidates(url string) []string {
	p, err := Path(url)
	if err != nil {
		return nil
	}
	out := []string{p, filepath.Join(filepath.Dir(p), Key(url))}
	if os.Getenv(CacheEnv) == "" {
		if base, err := os.UserCacheDir(); err == nil {
			out = append(out, filepath.Join(base, "tinygrad", "downloads", Key(url)))
		}
	}
	return out
}

// Cached reports the cached file of a model, if there is a complete one.
// A file of the wrong size (when the size is known) is an error rather than
// a miss: it was put there by hand, and silently downloading over it would
// hide the mistake.
func Cached(m Model) (path string, size int64, err error) {
	for _, p := range candidates(m.URL) {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", 0, err
		}
		if !st.Mode().IsRegular() {
			continue
		}
		if m.Size > 0 && st.Size() != m.Size {
			return "", 0, fmt.Errorf("cached file %s has %d bytes, %s has %d: remove it (ember rm %s) and pull again",
				p, st.Size(), m.label(), m.Size, m.ref())
		}
		return p, st.Size(), nil
	}
	return "", 0, nil
}

// Partial is the size of an unfinished download of a model (0: none).
func Partial(m Model) int64 {
	p, err := Path(m.URL)
	if err != nil {
		return 0
	}
	if st, err := os.Stat(p + partSuffix); err == nil {
		return st.Size()
	}
	return 0
}

// ref is how commands name a model: its registry name, else its URL.
func (m Model) ref() string {
	if m.Name != "" {
		return m.Name
	}
	return m.URL
}

// label is how messages name a model: its registry name, else the file
// name at the end of its URL.
func (m Model) label() string {
	if m.Name != "" {
		return m.Name
	}
	if i := strings.LastIndexByte(m.URL, '/'); i >= 0 && i < len(m.URL)-1 {
		return m.URL[i+1:]
	}
	return m.URL
}

// The companions of a cache file during a download (see the package comment).
const (
	partSuffix = ".part"
	etagSuffix = ".etag"
	lockSuffix = ".lock"
	urlSuffix  = ".url" // beside <key>, not <key>.gguf: the URL a file came from
)

// SourceURL is the URL the cache file with key came from, when the
// download recorded it ("" otherwise).
func SourceURL(key string) string {
	dir, err := CacheDir()
	if err != nil {
		return ""
	}
	return readSmall(filepath.Join(dir, key+urlSuffix))
}

// IsKey reports whether s is a cache key: 32 lower-case hex digits.
func IsKey(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Remove deletes a model's cached file and any unfinished download of it.
// It takes the download lock first so it never pulls a file from under a
// running download. It reports whether anything was removed. Files in
// tinygrad's directory are left alone: they belong to another tool.
func Remove(m Model) (bool, error) { return RemoveKey(Key(m.URL), m.label()) }

// RemoveKey is Remove for the cache file named by its key (what ls lists
// for files pulled by URL); label names it in messages.
func RemoveKey(key, label string) (bool, error) {
	dir, err := CacheDir()
	if err != nil {
		return false, err
	}
	p := filepath.Join(dir, key+".gguf")
	lk, err := tryLock(p + lockSuffix)
	if err != nil {
		return false, err
	}
	if lk == nil {
		return false, fmt.Errorf("%s is being downloaded by another process", label)
	}
	defer lk.unlock()
	removed := false
	for _, f := range []string{p, filepath.Join(dir, key), p + partSuffix, p + etagSuffix, filepath.Join(dir, key+urlSuffix)} {
		err := os.Remove(f)
		if err == nil {
			removed = true
		} else if !errors.Is(err, fs.ErrNotExist) {
			return removed, err
		}
	}
	return removed, nil
}
