package registry

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// offline is a client that fails the test if anything asks the network.
func offline(t *testing.T) *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		t.Errorf("unexpected request to %s", r.URL)
		return nil, errors.New("offline")
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRegistryTable(t *testing.T) {
	// The models the engine targets must all have a name.
	for _, name := range []string{"llama3.2:1b", "llama3.2:1b-q4", "llama3.2:3b", "llama3.1:8b", "qwen3:0.6b", "qwen3:1.7b",
		"qwen3:8b", "qwen3:30b-a3b", "olmoe", "deepseek-v2-lite", "glm-4.7-flash", "glm-4.7-flash-q4_0",
		"youtu-llm:2b", "stories15m", "stories260k"} {
		if _, ok := Lookup(name); !ok {
			t.Errorf("no registry entry %s", name)
		}
	}
	hfURL := regexp.MustCompile(`^https://huggingface\.co/[\w.-]+/[\w.-]+/resolve/main/[\w./-]+\.gguf$`)
	seen := map[string]bool{}
	urls := map[string]bool{}
	for _, m := range Models() {
		if seen[m.Name] || urls[m.URL] {
			t.Errorf("%s: duplicate name or URL", m.Name)
		}
		seen[m.Name], urls[m.URL] = true, true
		if m.Name != strings.ToLower(m.Name) || strings.ContainsAny(m.Name, " /") {
			t.Errorf("%q: names are lower case without spaces or slashes", m.Name)
		}
		if !hfURL.MatchString(m.URL) {
			t.Errorf("%s: %s is not a Hugging Face GGUF URL", m.Name, m.URL)
		}
		if m.SHA256 != "" && !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(m.SHA256) {
			t.Errorf("%s: bad SHA-256 %q", m.Name, m.SHA256)
		}
		if m.About == "" {
			t.Errorf("%s: no description", m.Name)
		}
	}
	if m, _ := Lookup("Qwen3:8B"); m.Name != "qwen3:8b" {
		t.Error("lookup is not case-insensitive")
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv(CacheEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg-test")
	if d, _ := CacheDir(); runtime.GOOS == "linux" && d != "/tmp/xdg-test/ember" {
		t.Errorf("CacheDir without %s: %s", CacheEnv, d)
	}
	t.Setenv(CacheEnv, "/tmp/elsewhere")
	// md5 of the URL's text, as `printf %s URL | md5sum` gives it
	p, _ := Path("https://example.com/a.gguf")
	if want := "/tmp/elsewhere/9c278bfb8b5ecb898f09fa2590e6a799.gguf"; p != want {
		t.Errorf("Path: %s, want %s", p, want)
	}
}

// A model the user put in the cache by hand (MD5 of the URL, with or
// without .gguf) is found without any network.
func TestResolvePrepopulated(t *testing.T) {
	m, _ := Lookup("stories260k")
	for _, name := range []string{Key(m.URL) + ".gguf", Key(m.URL)} {
		dir := testCache(t)
		want := filepath.Join(dir, name)
		if err := os.WriteFile(want, payload(30, int(m.Size)), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, ref := range []string{"stories260k", "Stories260K", m.URL} {
			got, err := Resolve(context.Background(), ref, Options{Client: offline(t)})
			if err != nil || got != want {
				t.Errorf("Resolve(%s) with %s cached: %q, %v", ref, name, got, err)
			}
		}
	}
}

// A hand-placed file of the wrong size is reported, not used or replaced.
func TestResolveWrongSizeInCache(t *testing.T) {
	dir := testCache(t)
	m, _ := Lookup("stories260k")
	os.WriteFile(filepath.Join(dir, Key(m.URL)+".gguf"), payload(31, 1000), 0o644)
	_, err := Resolve(context.Background(), "stories260k", Options{Client: offline(t)})
	if err == nil || !strings.Contains(err.Error(), "ember rm stories260k") {
		t.Fatalf("want an error telling to remove the file, got %v", err)
	}
}

func TestResolveForms(t *testing.T) {
	testCache(t)
	local := filepath.Join(t.TempDir(), "local.gguf")
	os.WriteFile(local, []byte("GGUF"), 0o644)
	if got, err := Resolve(context.Background(), local, Options{Client: offline(t)}); err != nil || got != local {
		t.Errorf("local path: %q %v", got, err)
	}
	_, err := Resolve(context.Background(), "no/such/model.gguf", Options{Client: offline(t)})
	if err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing path: %v", err)
	}
	_, err = Resolve(context.Background(), "llama9:1t", Options{Client: offline(t)})
	if !errors.Is(err, ErrUnknownModel) || !strings.Contains(err.Error(), "qwen3:8b") {
		t.Errorf("unknown name: %v", err)
	}
	_, err = Resolve(context.Background(), filepath.Dir(local), Options{Client: offline(t)})
	if err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory: %v", err)
	}
	// A URL is downloaded once, then served from the cache.
	data := payload(32, 123457)
	fs := newFileServer(t, data)
	var log strings.Builder
	got, err := Resolve(context.Background(), fs.url("by-url.gguf"), Options{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, got), data) {
		t.Fatal("file differs")
	}
	if !strings.Contains(log.String(), "by-url.gguf: downloading "+fs.url("by-url.gguf")) {
		t.Errorf("log lacks the download note:\n%s", log.String())
	}
	if again, err := Resolve(context.Background(), fs.url("by-url.gguf"), Options{Client: offline(t)}); err != nil || again != got {
		t.Errorf("second resolve: %q %v", again, err)
	}
}

func TestRemove(t *testing.T) {
	dir := testCache(t)
	m := Model{Name: "x", URL: "https://example.invalid/x.gguf"}
	p, _ := Path(m.URL)
	os.WriteFile(p, []byte("a"), 0o644)
	os.WriteFile(p+partSuffix, []byte("b"), 0o644)
	if ok, err := Remove(m); !ok || err != nil {
		t.Fatalf("Remove: %v %v", ok, err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), lockSuffix) {
			t.Errorf("left after Remove: %s", e.Name())
		}
	}
	if ok, err := Remove(m); ok || err != nil {
		t.Errorf("second Remove: %v %v", ok, err)
	}
}
