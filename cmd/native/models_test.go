package main

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emberllm/ember/engine/registry"
)

// The registry commands and --model's three forms, through the binary with
// a private cache ($EMBER_CACHE) and a local server standing in for Hugging
// Face. A proxy that leads nowhere catches any request to the outside.

// emberEnv runs the binary with extra environment variables.
func emberEnv(t *testing.T, env []string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(emberBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

// isolatedCache is the environment of a test with its own cache, no
// network beyond 127.0.0.1 (which proxies never take).
func isolatedCache(t *testing.T) (string, []string) {
	dir := t.TempDir()
	return dir, []string{registry.CacheEnv + "=" + dir, "HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9"}
}

// countingServer serves files from a map and counts the requests.
func countingServer(t *testing.T, files map[string][]byte, delay time.Duration) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		time.Sleep(delay)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(b))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// randomBytes is a "model" file: random bytes after the GGUF magic, which
// pull checks.
func randomBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 99))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	copy(b, "GGUF")
	return b
}

// noLockFiles fails when a download left a lock file in the cache.
func noLockFiles(t *testing.T, dir string) {
	t.Helper()
	if locks, _ := filepath.Glob(filepath.Join(dir, "*.lock")); len(locks) > 0 {
		t.Errorf("lock files left in the cache: %v", locks)
	}
}

// prepopulate copies ../shared's stories260K into the cache under the MD5
// of its registry URL, as a user without network would.
func prepopulate(t *testing.T, dir string) string {
	t.Helper()
	inspectNeedStories(t)
	m, _ := registry.Lookup("stories260k")
	b, err := os.ReadFile(inspectStories)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, registry.Key(m.URL)+".gguf")
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestPullLsRm(t *testing.T) {
	dir, env := isolatedCache(t)
	data := randomBytes(1, 300001)
	srv, reqs := countingServer(t, map[string][]byte{"/m.gguf": data}, 0)
	url := srv.URL + "/m.gguf"

	out, errs, err := emberEnv(t, env, "pull", url)
	if err != nil {
		t.Fatalf("pull: %v\n%s", err, errs)
	}
	path := strings.TrimSpace(out)
	if want := filepath.Join(dir, registry.Key(url)+".gguf"); path != want {
		t.Errorf("pull printed %q, want %q", path, want)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Fatal("pulled file differs")
	}
	if !strings.Contains(errs, "m.gguf: downloading "+url) || !strings.Contains(errs, "m.gguf: 293.0 KiB in") {
		t.Errorf("pull's stderr:\n%s", errs)
	}
	if _, errs, _ = emberEnv(t, env, "pull", url); !strings.Contains(errs, "already in the cache") || reqs.Load() != 1 {
		t.Errorf("second pull: %d requests, stderr:\n%s", reqs.Load(), errs)
	}

	out, _, err = emberEnv(t, env, "ls")
	if err != nil {
		t.Fatal(err)
	}
	noLockFiles(t, dir)
	// ls names the file and the URL it came from; rm takes that name.
	for _, want := range []string{"cache: " + dir, "NAME", "llama3.2:1b ", "qwen3:30b-a3b", "glm-4.7-flash-q4_0", "stories260k",
		"other files in the cache", registry.Key(url) + ".gguf  293.0 KiB  " + url} {
		if !strings.Contains(out, want) {
			t.Errorf("ls lacks %q:\n%s", want, out)
		}
	}
	out, _, err = emberEnv(t, env, "rm", registry.Key(url)+".gguf")
	if err != nil || !strings.Contains(out, "removed "+registry.Key(url)+".gguf") {
		t.Errorf("rm by file name: %v %s", err, out)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("rm left the file")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("rm left %v", ents)
	}
	// And by URL.
	emberEnv(t, env, "pull", url)
	out, _, err = emberEnv(t, env, "rm", url)
	if err != nil || !strings.Contains(out, "removed "+url) {
		t.Errorf("rm: %v %s", err, out)
	}
	out, _, _ = emberEnv(t, env, "rm", url)
	if !strings.Contains(out, "is not in the cache") {
		t.Errorf("second rm: %s", out)
	}
	if _, errs, err := emberEnv(t, env, "rm", "/etc/0123456789abcdef0123456789abcdef.gguf"); err == nil || !strings.Contains(errs, "cached files only") {
		t.Errorf("rm of a file outside the cache: %v %s", err, errs)
	}
}

func TestPullErrors(t *testing.T) {
	_, env := isolatedCache(t)
	srv, _ := countingServer(t, map[string][]byte{"/login.gguf": []byte("<html><body>Sign in to download</body></html>")}, 0)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"pull", srv.URL + "/nope.gguf"}, "not found on the server (HTTP 404)"},
		{[]string{"pull", srv.URL + "/login.gguf"}, "is not a GGUF file (it starts with \"<htm\", which looks like an HTML page"},
		{[]string{"pull", "llama9:1t"}, `unknown model "llama9:1t"`},
		{[]string{"run", "--model", "llama9:1t", "--prompt", "hi"}, "known names: "},
		{[]string{"pull"}, "pull wants a model name or URL"},
	} {
		_, errs, err := emberEnv(t, env, c.args...)
		if err == nil || !strings.Contains(errs, c.want) {
			t.Errorf("%v: want an error with %q, got %v\n%s", c.args, c.want, err, errs)
		}
	}
}

// Offline, with the model placed in the cache by hand: ls shows it, and
// run and inspect take its registry name.
func TestRegistryNameOffline(t *testing.T) {
	dir, env := isolatedCache(t)
	prepopulate(t, dir)
	out, _, err := emberEnv(t, env, "ls")
	if err != nil || !regexp.MustCompile(`(?m)^stories260k\s+cached\s+1\.1 MiB\s+TinyStories`).MatchString(out) {
		t.Errorf("ls: %v\n%s", err, out)
	}
	out, errs, err := emberEnv(t, env, "run", "--model", "stories260k", "--prompt", "Once upon a time",
		"--temperature", "0", "--count", "40", "--threads", "2")
	if err != nil || !strings.HasPrefix(out, storiesContinuation) {
		t.Fatalf("run --model stories260k: %v\n%s\n%s", err, out, errs)
	}
	if strings.Contains(errs, "downloading") {
		t.Errorf("a cached model was downloaded:\n%s", errs)
	}
	out, errs, err = emberEnv(t, env, "inspect", "stories260k", "-tensors=false")
	if err != nil || !strings.Contains(out, "architecture") {
		t.Errorf("inspect stories260k: %v\n%s%s", err, out, errs)
	}
}

// The end-to-end path: run a model given by URL, downloaded from a local
// server on first use and taken from the cache on the second.
func TestRunModelURL(t *testing.T) {
	inspectNeedStories(t)
	_, env := isolatedCache(t)
	b, err := os.ReadFile(inspectStories)
	if err != nil {
		t.Fatal(err)
	}
	srv, reqs := countingServer(t, map[string][]byte{"/stories260K.gguf": b}, 0)
	url := srv.URL + "/stories260K.gguf"
	for i := range 2 {
		out, errs, err := emberEnv(t, env, "run", "--model", url, "--prompt", "Once upon a time",
			"--temperature", "0", "--count", "40", "--threads", "2")
		if err != nil || !strings.HasPrefix(out, storiesContinuation) {
			t.Fatalf("run %d --model URL: %v\n%s\n%s", i, err, out, errs)
		}
		if downloaded := strings.Contains(errs, "downloading "+url); downloaded != (i == 0) {
			t.Errorf("run %d: downloaded=%v\n%s", i, downloaded, errs)
		}
	}
	if reqs.Load() != 1 {
		t.Errorf("%d requests, want 1", reqs.Load())
	}
}

// Two ember processes pulling the same URL at once leave one intact file
// and make one request: the second waits for the first's lock.
func TestPullConcurrent(t *testing.T) {
	_, env := isolatedCache(t)
	data := randomBytes(2, 500000)
	srv, reqs := countingServer(t, map[string][]byte{"/c.gguf": data}, 700*time.Millisecond)
	url := srv.URL + "/c.gguf"
	emberBinary(t) // build before starting the clock
	var wg sync.WaitGroup
	outs, errss := make([]string, 2), make([]string, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errss[i], errs[i] = emberEnv(t, env, "pull", url)
		}()
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("pull %d: %v\n%s", i, errs[i], errss[i])
		}
	}
	if outs[0] != outs[1] {
		t.Errorf("different paths: %q %q", outs[0], outs[1])
	}
	if got, _ := os.ReadFile(strings.TrimSpace(outs[0])); !bytes.Equal(got, data) {
		t.Fatal("cached file corrupt")
	}
	if reqs.Load() != 1 || !strings.Contains(errss[0]+errss[1], "waiting") {
		t.Errorf("%d requests; stderr:\n%s\n%s", reqs.Load(), errss[0], errss[1])
	}
	noLockFiles(t, filepath.Dir(strings.TrimSpace(outs[0])))
}
