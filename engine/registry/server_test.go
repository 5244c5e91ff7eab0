package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fileServer is the local HTTP server downloads are tested against: it
// serves one payload, honours Range (or not), and cuts the connection when
// a transfer crosses one of its cut points, each cut once.
type fileServer struct {
	t       *testing.T
	mu      sync.Mutex
	data    []byte
	etag    string
	noRange bool    // answer every request whole, as some servers do
	cuts    []int64 // absolute offsets still to cut at, ascending
	delay   time.Duration
	ranges  []string // the Range header of each request ("" for none)
	full    int      // requests answered from offset 0
	srv     *httptest.Server
}

// newFileServer starts a server for data; set, if given, configures it
// before the first request can arrive.
func newFileServer(t *testing.T, data []byte, set ...func(*fileServer)) *fileServer {
	fs := &fileServer{t: t, data: data, etag: `"v1"`}
	for _, f := range set {
		f(fs)
	}
	fs.srv = httptest.NewServer(http.HandlerFunc(fs.serve))
	t.Cleanup(fs.srv.Close)
	return fs
}

func (fs *fileServer) url(name string) string { return fs.srv.URL + "/" + name }

func (fs *fileServer) serve(w http.ResponseWriter, r *http.Request) {
	fs.mu.Lock()
	data, etag, delay, noRange := fs.data, fs.etag, fs.delay, fs.noRange
	fs.ranges = append(fs.ranges, r.Header.Get("Range"))
	if r.Header.Get("Range") == "" || noRange {
		fs.full++
	}
	fs.mu.Unlock()
	if r.URL.Path == "/missing.gguf" {
		http.NotFound(w, r)
		return
	}
	time.Sleep(delay)
	if noRange {
		r.Header.Del("Range")
	} else {
		w.Header().Set("ETag", etag)
	}
	cw := &cutWriter{ResponseWriter: w, fs: fs, off: -1}
	http.ServeContent(cw, r, "", time.Time{}, bytes.NewReader(data))
}

// cutWriter passes the body through until it reaches the next cut point,
// then flushes what came before and aborts the connection.
type cutWriter struct {
	http.ResponseWriter
	fs  *fileServer
	off int64 // absolute offset of the next body byte; -1 before headers
}

func (c *cutWriter) WriteHeader(code int) {
	c.off = 0
	if cr := c.Header().Get("Content-Range"); code == http.StatusPartialContent {
		start, _, _ := parseContentRange(cr)
		c.off = start
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *cutWriter) Write(b []byte) (int, error) {
	if c.off < 0 {
		c.WriteHeader(http.StatusOK)
	}
	c.fs.mu.Lock()
	cut := int64(-1)
	for len(c.fs.cuts) > 0 && c.fs.cuts[0] <= c.off {
		c.fs.cuts = c.fs.cuts[1:] // passed by a resume: no longer reachable
	}
	if len(c.fs.cuts) > 0 && c.fs.cuts[0] < c.off+int64(len(b)) {
		cut = c.fs.cuts[0]
		c.fs.cuts = c.fs.cuts[1:]
	}
	c.fs.mu.Unlock()
	if cut < 0 {
		c.off += int64(len(b))
		return c.ResponseWriter.Write(b)
	}
	c.ResponseWriter.Write(b[:cut-c.off])
	c.ResponseWriter.(http.Flusher).Flush()
	panic(http.ErrAbortHandler)
}

func (fs *fileServer) wholeTransfers() int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.full
}

func (fs *fileServer) requests() []string {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return slices.Clone(fs.ranges)
}

// payload is seeded random bytes: never zeros, which would hide an offset
// error in a resume.
func payload(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 0x656d626572))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	copy(b, "GGUF") // downloads must start with the magic
	return b
}

// randomCuts draws k distinct cut points inside (0, n).
func randomCuts(seed uint64, k int, n int) []int64 {
	r := rand.New(rand.NewPCG(seed, 7))
	set := map[int64]bool{}
	for len(set) < k {
		set[1+r.Int64N(int64(n-1))] = true
	}
	var out []int64
	for c := range set {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// testCache points the cache at a fresh directory for one test.
func testCache(t *testing.T) string {
	d := t.TempDir()
	t.Setenv(CacheEnv, d)
	return d
}

// fastRetry makes retries immediate, so cut tests take milliseconds.
func fastRetry(log *strings.Builder) Options {
	return Options{Log: log, RetryWait: time.Millisecond}
}

func rangeStarts(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, strings.TrimPrefix(r, "bytes="))
	}
	return out
}

func expectRanges(t *testing.T, reqs []string, cuts []int64) {
	t.Helper()
	want := []string{""}
	for _, c := range cuts {
		want = append(want, fmt.Sprintf("%d-", c))
	}
	if got := rangeStarts(reqs); !slices.Equal(got, want) {
		t.Errorf("requests' ranges: got %q, want %q", got, want)
	}
}
