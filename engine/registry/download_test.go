package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// noLeftovers checks that only complete files (and their URL notes)
// remain: no partial download, validator or lock file.
func noLeftovers(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, partSuffix) || strings.HasSuffix(n, etagSuffix) || strings.HasSuffix(n, lockSuffix) {
			t.Errorf("left in the cache: %s", n)
		}
	}
}

func TestFetchFull(t *testing.T) {
	dir := testCache(t)
	data := payload(1, 2<<20+12345)
	fs := newFileServer(t, data)
	m := Model{Name: "test:full", URL: fs.url("full.gguf"), Size: int64(len(data)), SHA256: sha(data)}
	var log strings.Builder
	path, err := Fetch(context.Background(), m, Options{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, Key(m.URL)+".gguf"); path != want {
		t.Errorf("path %s, want %s", path, want)
	}
	if !bytes.Equal(readFile(t, path), data) {
		t.Fatal("downloaded file differs")
	}
	noLeftovers(t, dir)
	if !strings.Contains(log.String(), "test:full: 2.0 MiB in ") {
		t.Errorf("no summary line in the log:\n%s", log.String())
	}
	// Cached now: Get answers without a request.
	n := len(fs.requests())
	if p, err := Get(context.Background(), m, Options{}); err != nil || p != path {
		t.Fatalf("Get after download: %q %v", p, err)
	}
	if len(fs.requests()) != n {
		t.Error("Get of a cached model made a request")
	}
}

// Several cuts at random points in one Fetch: each is resumed with a Range
// request from exactly where it stopped, and the result is byte-identical.
func TestFetchResumesCuts(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		dir := testCache(t)
		data := payload(seed, 1<<20+int(seed)*7919)
		cuts := randomCuts(seed, 5, len(data))
		fs := newFileServer(t, data, func(s *fileServer) { s.cuts = slices.Clone(cuts) })
		var log strings.Builder
		m := Model{URL: fs.url("cut.gguf"), SHA256: sha(data)}
		path, err := Fetch(context.Background(), m, fastRetry(&log))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, log.String())
		}
		if !bytes.Equal(readFile(t, path), data) {
			t.Fatalf("seed %d: resumed file differs", seed)
		}
		expectRanges(t, fs.requests(), cuts)
		if strings.Count(log.String(), "resuming at") < len(cuts) {
			t.Errorf("seed %d: log lacks the resumes:\n%s", seed, log.String())
		}
		noLeftovers(t, dir)
	}
}

// A download cut with retries off stops with an error and keeps its
// partial file; each new run resumes it, as a user re-running ember would.
func TestFetchResumesAcrossRuns(t *testing.T) {
	dir := testCache(t)
	data := payload(4, 1<<20+4321)
	cuts := randomCuts(4, 4, len(data))
	fs := newFileServer(t, data, func(s *fileServer) { s.cuts = slices.Clone(cuts) })
	m := Model{Name: "test:runs", URL: fs.url("runs.gguf"), Size: int64(len(data)), SHA256: sha(data)}
	final, _ := Path(m.URL)
	for run, c := range cuts {
		_, err := Fetch(context.Background(), m, Options{Retries: -1})
		if err == nil || !strings.Contains(err.Error(), "run again to resume") {
			t.Fatalf("run %d: want a cut error saying how to resume, got %v", run, err)
		}
		if got := fileSize(final + partSuffix); got != c {
			t.Fatalf("run %d: partial file has %d bytes, want %d (the cut point)", run, got, c)
		}
		if p, _, _ := Cached(m); p != "" {
			t.Fatalf("run %d: a partial download counts as cached", run)
		}
	}
	path, err := Fetch(context.Background(), m, Options{Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, path), data) {
		t.Fatal("file resumed across runs differs")
	}
	expectRanges(t, fs.requests(), cuts)
	noLeftovers(t, dir)
}

// A server that ignores Range sends the whole file again: the partial file
// is restarted from zero, with a note saying why, and still ends identical.
func TestFetchServerIgnoresRange(t *testing.T) {
	testCache(t)
	data := payload(5, 1<<20+99)
	fs := newFileServer(t, data, func(s *fileServer) {
		s.noRange = true
		s.cuts = randomCuts(5, 3, len(data))
	})
	var log strings.Builder
	m := Model{URL: fs.url("norange.gguf"), Size: int64(len(data)), SHA256: sha(data)}
	path, err := Fetch(context.Background(), m, fastRetry(&log))
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if !bytes.Equal(readFile(t, path), data) {
		t.Fatal("file differs")
	}
	if n := strings.Count(log.String(), "does not support resuming (it ignored the Range request); restarting from zero"); n != 3 {
		t.Errorf("want 3 restart notes, got %d:\n%s", n, log.String())
	}
	if n := fs.wholeTransfers(); n != 4 {
		t.Errorf("want 4 whole transfers, got %d", n)
	}
}

// The file changed on the server between runs (a new ETag): the resume's
// If-Range gets the whole new file, not a splice of two versions.
func TestFetchFileChanged(t *testing.T) {
	testCache(t)
	old := payload(6, 600000)
	fs := newFileServer(t, old, func(s *fileServer) { s.cuts = []int64{250000} })
	m := Model{URL: fs.url("changed.gguf")}
	if _, err := Fetch(context.Background(), m, Options{Retries: -1}); err == nil {
		t.Fatal("want the cut to stop the first run")
	}
	fresh := payload(7, 600000)
	fs.mu.Lock()
	fs.data, fs.etag = fresh, `"v2"`
	fs.mu.Unlock()
	var log strings.Builder
	path, err := Fetch(context.Background(), m, Options{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, path), fresh) {
		t.Fatal("file is not the new version")
	}
	if !strings.Contains(log.String(), "the file changed on the server") {
		t.Errorf("no note about the change:\n%s", log.String())
	}
}

// A partial file that is already complete (cut between the last byte and
// the rename) is finished by the server's 416 answer.
func TestFetchPartialAlreadyComplete(t *testing.T) {
	testCache(t)
	data := payload(8, 300000)
	fs := newFileServer(t, data)
	m := Model{URL: fs.url("done.gguf"), SHA256: sha(data)}
	final, _ := Path(m.URL)
	os.MkdirAll(filepath.Dir(final), 0o755)
	os.WriteFile(final+partSuffix, data, 0o644)
	path, err := Fetch(context.Background(), m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, path), data) {
		t.Fatal("file differs")
	}
}

// What is not a GGUF file (an HTML page where a model should be, a body
// too short for the magic) is refused as soon as its first bytes show it,
// and nothing is kept; a file that is one records the URL it came from.
func TestFetchChecksMagic(t *testing.T) {
	dir := testCache(t)
	for name, body := range map[string]string{
		"page.gguf":  "<!DOCTYPE html><html><body>Please log in</body></html>" + strings.Repeat(" ", 5000),
		"short.gguf": "GG",
		"bin.gguf":   "\x7fELF" + strings.Repeat("\x00", 100),
	} {
		fs := newFileServer(t, []byte(body))
		_, err := Fetch(context.Background(), Model{URL: fs.url(name)}, Options{RetryWait: time.Millisecond})
		if !errors.Is(err, ErrNotGGUF) || !strings.Contains(err.Error(), "not a GGUF file") || !strings.Contains(err.Error(), "nothing was kept") {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "page.gguf" && !strings.Contains(err.Error(), "HTML") {
			t.Errorf("%s: %v", name, err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Fatalf("%s: the cache holds %d files", name, len(ents))
		}
	}
	data := payload(3, 5000)
	fs := newFileServer(t, data)
	path, err := Fetch(context.Background(), Model{URL: fs.url("ok.gguf")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := SourceURL(Key(fs.url("ok.gguf"))); got != fs.url("ok.gguf") {
		t.Fatalf("the URL note says %q", got)
	}
	noLeftovers(t, dir)
	if removed, err := RemoveKey(Key(fs.url("ok.gguf")), "ok"); !removed || err != nil {
		t.Fatal(removed, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("after RemoveKey the cache holds %v (%s was the file)", ents, path)
	}
}

func TestFetchNotFound(t *testing.T) {
	dir := testCache(t)
	fs := newFileServer(t, payload(9, 1000))
	_, err := Fetch(context.Background(), Model{URL: fs.url("missing.gguf")}, Options{RetryWait: time.Millisecond})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "HTTP 404") || !strings.Contains(err.Error(), "missing.gguf") {
		t.Fatalf("want a 404 error naming the file, got %v", err)
	}
	if len(fs.requests()) != 1 {
		t.Errorf("a 404 was retried: %d requests", len(fs.requests()))
	}
	noLeftovers(t, dir)
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("cache holds %d files after a 404", len(ents))
	}
}

// The server's file is not the size the registry expects: refused before
// anything is written, naming both sizes.
func TestFetchWrongLength(t *testing.T) {
	dir := testCache(t)
	data := payload(10, 50000)
	fs := newFileServer(t, data)
	m := Model{Name: "test:len", URL: fs.url("len.gguf"), Size: int64(len(data)) + 100}
	_, err := Fetch(context.Background(), m, Options{})
	if !errors.Is(err, ErrSizeMismatch) || !strings.Contains(err.Error(), "50000") || !strings.Contains(err.Error(), "50100") {
		t.Fatalf("want a size mismatch naming 50000 and 50100, got %v", err)
	}
	if p, _, _ := Cached(m); p != "" {
		t.Error("a mismatched file was cached")
	}
	noLeftovers(t, dir)
}

// A server whose Content-Length promises more than it ever sends: every
// attempt ends short, the download gives up without caching anything.
func TestFetchContentLengthShort(t *testing.T) {
	testCache(t)
	data := payload(11, 40000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(data)+1000))
		w.Write(data)
	}))
	defer srv.Close()
	m := Model{URL: srv.URL + "/short.gguf"}
	_, err := Fetch(context.Background(), m, Options{Retries: 2, RetryWait: time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "gave up after 3 attempts in a row") {
		t.Fatalf("want the download to give up, got %v", err)
	}
	if p, _, _ := Cached(m); p != "" {
		t.Error("a short file was cached")
	}
	if final, _ := Path(m.URL); fileSize(final+partSuffix) != int64(len(data)) {
		t.Error("the partial file was not kept for a later resume")
	}
}

func TestFetchChecksumMismatch(t *testing.T) {
	dir := testCache(t)
	data := payload(12, 70000)
	fs := newFileServer(t, data)
	bad := sha(append([]byte{1}, data...))
	_, err := Fetch(context.Background(), Model{URL: fs.url("sum.gguf"), SHA256: bad}, Options{})
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), sha(data)) {
		t.Fatalf("want a checksum error showing the real hash, got %v", err)
	}
	noLeftovers(t, dir)
}

// A full disk (the partial file is /dev/full) is named as such.
func TestFetchDiskFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	testCache(t)
	fs := newFileServer(t, payload(13, 100000))
	m := Model{URL: fs.url("full-disk.gguf")}
	final, _ := Path(m.URL)
	os.MkdirAll(filepath.Dir(final), 0o755)
	if err := os.Symlink("/dev/full", final+partSuffix); err != nil {
		t.Skip(err)
	}
	_, err := Fetch(context.Background(), m, Options{})
	if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("want a disk-full error, got %v", err)
	}
}

func TestParseContentRange(t *testing.T) {
	for _, c := range []struct {
		in           string
		start, total int64
		ok           bool
	}{
		{"bytes 100-199/200", 100, 200, true},
		{"bytes */200", -1, 200, true},
		{"bytes 0-9/*", 0, -1, true},
		{"items 0-9/10", 0, 0, false},
		{"bytes 0-9", 0, 0, false},
	} {
		s, tot, ok := parseContentRange(c.in)
		if ok != c.ok || ok && (s != c.start || tot != c.total) {
			t.Errorf("%q: got %d %d %v", c.in, s, tot, ok)
		}
	}
}
