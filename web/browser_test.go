//go:build !js

package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/registry"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/internal/chromium"
	"github.com/emberllm/ember/internal/oracle"
	"github.com/emberllm/ember/server"
	"github.com/emberllm/ember/server/wire"
)

// The engine in a browser tab, end to end: cmd/wasm built for js/wasm,
// the page and its worker as this folder holds them, in headless Chromium
// on its WebGPU (SwiftShader: Vulkan on the CPU) or on the wasm CPU
// backend, held to the native engine on the same files. The tests share
// one wasm build, one Chromium and one page (the suite below), so that
// the engine is compiled and started once; each test leaves the page as a
// person would find it after that test's last action.

// suite is what the tests share; start builds it on first use and
// TestMain tears it down.
var suite struct {
	once sync.Once
	err  error
	site string // the static site: the page, its scripts and the engine
	// models holds the files the tests load: stories260K (where
	// ../shared has it), tiny synthetic models, a file that is not GGUF.
	models string
	web    *httptest.Server // the site and /models/ (CORS open)
	other  *httptest.Server // /models/ on another origin, without CORS
	chrome string
	ctx    context.Context // the browser's first tab, on the site
	stop   []func()

	mu     sync.Mutex
	gets   map[string]int      // GET requests for /models/ files, by path ("other:" and path on the other origin)
	ranges map[string][]string // their Range headers
	cut    map[string]bool     // models/cut-* files whose first download was cut
}

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(suite.stop) - 1; i >= 0; i-- {
		suite.stop[i]()
	}
	os.Exit(code)
}

// page returns the shared tab with the page open on the static site. The
// browser is Chromium with WebGPU on (--enable-unsafe-webgpu: headless
// Chromium on Linux has no adapter without it).
func page(t *testing.T) context.Context {
	t.Helper()
	chrome := chromium.Require(t)
	if testing.Short() {
		t.Skip("builds the engine for wasm and runs it in Chromium")
	}
	suite.once.Do(func() { suite.err = start(chrome) })
	if suite.err != nil {
		t.Fatal(suite.err)
	}
	return suite.ctx
}

func start(chrome string) error {
	suite.chrome = chrome
	suite.gets, suite.ranges, suite.cut = map[string]int{}, map[string][]string{}, map[string]bool{}
	var err error
	if suite.site, err = os.MkdirTemp("", "ember-web-site"); err != nil {
		return err
	}
	suite.stop = append(suite.stop, func() { os.RemoveAll(suite.site) })
	suite.models = filepath.Join(suite.site, "models")
	if err := os.Mkdir(suite.models, 0o755); err != nil {
		return err
	}
	if err := chromium.Site("..", suite.site); err != nil {
		return err
	}
	if shared := oracle.SharedDir(); shared != "" {
		if err := os.Symlink(filepath.Join(shared, "models", "stories260K.gguf"), filepath.Join(suite.models, "stories260K.gguf")); err != nil {
			return err
		}
	}
	// Text where a model should be: what a mistyped URL on a static host
	// often gives (its index page).
	if err := os.WriteFile(filepath.Join(suite.models, "index.gguf"), []byte("<!doctype html><title>not a model</title>\n"), 0o644); err != nil {
		return err
	}
	suite.web = httptest.NewServer(siteHandler(true))
	suite.other = httptest.NewServer(siteHandler(false))
	suite.stop = append(suite.stop, suite.web.Close, suite.other.Close)

	ctx, cancel := newBrowser(true)
	suite.stop = append(suite.stop, cancel)
	suite.ctx = ctx
	return chromedp.Do(ctx, chromedp.Navigate(suite.web.URL+"/"), chromedp.WaitVisible(chromedp.ID("prompt")))
}

// siteHandler serves the site, counting the requests for models. cors
// says whether other origins' pages may read the models (as a model host
// for the ember server's page must allow); the other origin does not.
func siteHandler(cors bool) http.Handler {
	files := http.FileServer(http.Dir(suite.site))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/models/") {
			if cors {
				w.Header().Set("Access-Control-Allow-Origin", "*")
				w.Header().Set("Access-Control-Allow-Headers", "Range")
				w.Header().Set("Access-Control-Expose-Headers", "Content-Range, Content-Length, ETag")
			}
			if r.Method == http.MethodGet {
				key := r.URL.Path
				if !cors {
					key = "other:" + key
				}
				suite.mu.Lock()
				suite.gets[key]++
				suite.ranges[key] = append(suite.ranges[key], r.Header.Get("Range"))
				cut := strings.HasPrefix(r.URL.Path, "/models/cut-") && !suite.cut[key]
				suite.cut[key] = true
				suite.mu.Unlock()
				if cut {
					cutDownload(w, filepath.Join(suite.site, filepath.FromSlash(r.URL.Path)))
					return
				}
			}
		}
		files.ServeHTTP(w, r)
	})
}

// cutDownload sends the first half of a file and drops the connection,
// as a network that fails mid-download does.
func cutDownload(w http.ResponseWriter, path string) {
	f, err := os.Open(path)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Length", fmt.Sprint(st.Size()))
	w.Header().Set("Accept-Ranges", "bytes")
	io.CopyN(w, f, st.Size()/2)
	w.(http.Flusher).Flush()
	// Time for the browser to take what was sent before the cut, which
	// it would otherwise throw away with the failed response.
	time.Sleep(500 * time.Millisecond)
	panic(http.ErrAbortHandler)
}

// requests is the Range headers of the GET requests for a model file.
func requests(path string) []string {
	suite.mu.Lock()
	defer suite.mu.Unlock()
	return append([]string(nil), suite.ranges[path]...)
}

// gets is the number of GET requests for a model file so far.
func gets(path string) int {
	suite.mu.Lock()
	defer suite.mu.Unlock()
	return suite.gets[path]
}

// newBrowser starts a headless Chromium of its own profile, with or
// without WebGPU, and returns its first tab.
func newBrowser(webgpu bool) (context.Context, context.CancelFunc) {
	profile, _ := os.MkdirTemp("", "ember-web-profile")
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromium.Options(suite.chrome, profile, webgpu)...)
	ctx, cancelC := chromedp.NewContext(actx)
	return ctx, func() { cancelC(); cancelA(); os.RemoveAll(profile) }
}

// storiesPath is stories260K's path on the site, or a skip where ../shared
// does not have it.
func storiesPath(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(suite.models, "stories260K.gguf")); err != nil {
		t.Skip("../shared is absent: no stories260K model (the tests that need a trained model skip)")
	}
	return filepath.Join(suite.models, "stories260K.gguf")
}

// jsRun evaluates expr in the page, awaiting a promise, within limit.
func jsRun[T any](t *testing.T, ctx context.Context, limit time.Duration, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", firstLine(expr), err)
	}
	return v
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// poll waits for expr to be truthy in the page.
func poll(ctx context.Context, limit time.Duration, expr string) error {
	return chromedp.Do(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(limit)))
}

// pollAcrossLoads is poll for a page that navigates meanwhile: a poll
// whose document goes away fails, and is tried again on the next.
func pollAcrossLoads(ctx context.Context, limit time.Duration, expr string) error {
	end := time.Now().Add(limit)
	for {
		err := poll(ctx, time.Until(end), expr)
		if err == nil || time.Now().After(end) || ctx.Err() != nil {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// nativeGenerate runs a protocol generate message on the native engine
// as cmd/wasm runs it in the tab (the message's options applied against
// the engine's context and vocabulary), on the CPU backend: the reference
// for the tab's text and tokens.
func nativeGenerate(t *testing.T, path string, m wire.Message) (string, []int32) {
	t.Helper()
	e, err := engine.Load(path, engine.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	sess, err := e.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	req, err := m.Request()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Options.Apply(&req, e.Context, e.Tokenizer.VocabSize()); err != nil {
		t.Fatal(err)
	}
	res, err := sess.Generate(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Text, res.Tokens
}

func greedy(n int) *wire.Options {
	temp := 0.0
	return &wire.Options{MaxTokens: &n, Temperature: &temp}
}

// tabResult is what the page's generate gives, with the token ids its
// events carried.
type tabResult struct {
	Text   string
	Tokens []int32
	Stats  wire.GenStats
}

// tabGenerate runs ember.generate in the page with a raw prompt. The
// tokens are those the events carry: the last event may carry text alone
// (bytes held back until a character completes, flushed at the end), as
// the wire protocol allows.
func tabGenerate(t *testing.T, ctx context.Context, prompt string, n int) tabResult {
	t.Helper()
	return tabGenerateWith(t, ctx, prompt, fmt.Sprintf("{max_tokens: %d, temperature: 0}", n))
}

// tabGenerateWith is tabGenerate with the request's options written as a
// JavaScript object.
func tabGenerateWith(t *testing.T, ctx context.Context, prompt, options string) tabResult {
	t.Helper()
	return jsRun[tabResult](t, ctx, 60*time.Second, fmt.Sprintf(`(async () => {
		const tokens = [];
		const r = await ember.generate({prompt: %q, raw: true, options: %s, onToken: (ev) => { if (ev.token !== undefined) tokens.push(ev.token); }});
		return {text: r.text, tokens, stats: r.stats};
	})()`, prompt, options))
}

type loadInfo struct {
	Model   string
	Backend string
	Notice  string
	Cached  bool
	Context int
	Vocab   int
}

// tabLoad loads a model into the tab through ember.load.
func tabLoad(t *testing.T, ctx context.Context, url, backend string) loadInfo {
	t.Helper()
	return jsRun[loadInfo](t, ctx, 60*time.Second, fmt.Sprintf(`ember.load(%q, {backend: %q})`, url, backend))
}

// storiesContext is the tab's KV cache in the tests that run stories260K
// on WebGPU: SwiftShader's decode step costs about 1.5 ms more for each
// position of the cache here (a workgroup per chunk of 16 rows, up to
// about 4096 a pass, each of which it starts at a cost even where it
// returns at once), 3 s a token
// at the model's 2048, 0.2 s at 64. The text does not depend on it.
const storiesContext = 64

// stories260K, a trained model, from the site through the page's driving
// contract: its greedy text and tokens on WebGPU are the native CPU
// backend's; so are ember.generate's on the wasm CPU backend, where the
// second load of the same URL comes from the browser's cache, with no
// request for the file.
func TestTabStories(t *testing.T) {
	ctx := page(t)
	path := storiesPath(t)
	const prompt, n = "Once upon a time", 40
	want, wantTokens := nativeGenerate(t, path, wire.Message{Type: "generate", ID: "x", Prompt: prompt, Raw: true, Options: greedy(n)})

	t0 := time.Now()
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/?model=models/stories260K.gguf&prompt=Once%%20upon%%20a%%20time&raw=1&n=%d&temperature=0&ctx=%d&autorun=1", suite.web.URL, n, storiesContext)),
		chromedp.Poll[chromedp.Void](`document.title.endsWith(" - done") || document.title.includes(" - error:")`, chromedp.WithPollingTimeout(90*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		Title, Output, Tokens, Status string
	}
	o := jsRun[outcome](t, ctx, time.Second, `({title: document.title, output: document.getElementById("output").textContent,
		tokens: document.getElementById("output").dataset.tokens || "", status: document.getElementById("status").textContent})`)
	t.Logf("autorun: %q in %.1f s; status %q", o.Title, time.Since(t0).Seconds(), o.Status)
	if !strings.HasSuffix(o.Title, " - done") {
		t.Fatalf("the page ended with %q", o.Title)
	}
	var tokens []int32
	if err := json.Unmarshal([]byte(o.Tokens), &tokens); err != nil {
		t.Fatalf("#output's data-tokens %q: %v", o.Tokens, err)
	}
	if o.Output != want || !slices.Equal(tokens, wantTokens) {
		t.Fatalf("the page's greedy text on WebGPU:\n%q\n%v\nthe native CPU backend's:\n%q\n%v", o.Output, tokens, want, wantTokens)
	}
	if !strings.Contains(o.Status, "on WebGPU") {
		t.Errorf("the page ran on %q, not WebGPU", o.Status)
	}
	if n := gets("/models/stories260K.gguf"); n != 1 {
		t.Errorf("the first load made %d requests for the model, not 1", n)
	}

	// Sampled on WebGPU (each next step recorded while the device runs
	// the last, the candidates chosen by the step): the tokens the native
	// CPU backend draws with the same seed. The two backends' logits may
	// differ in their last bits, and a draw falling between them would
	// change a token; both runs are deterministic, so for this model,
	// prompt and seed the comparison holds every time or fails every time.
	temp, seed, sn := 0.8, wire.Seed(11), 24
	wantS, wantSTokens := nativeGenerate(t, path, wire.Message{Type: "generate", ID: "s", Prompt: prompt, Raw: true,
		Options: &wire.Options{MaxTokens: &sn, Temperature: &temp, Seed: &seed}})
	rs := tabGenerateWith(t, ctx, prompt, fmt.Sprintf("{max_tokens: %d, temperature: %g, seed: %d}", sn, temp, seed))
	if !slices.Equal(rs.Tokens, wantSTokens) || rs.Text != wantS {
		t.Errorf("sampled on WebGPU in the tab: %v %q; the native CPU backend: %v %q", rs.Tokens, rs.Text, wantSTokens, wantS)
	}

	// The wasm CPU backend, and the browser's copy of the file.
	info := tabLoad(t, ctx, "models/stories260K.gguf", "cpu")
	if info.Backend != "cpu" || !info.Cached {
		t.Errorf("the second load: %+v, want the CPU backend, from the cache", info)
	}
	if n := gets("/models/stories260K.gguf"); n != 1 {
		t.Errorf("the second load of the same URL made a request for the model (%d in all)", n)
	}
	r := tabGenerate(t, ctx, prompt, n)
	if !slices.Equal(r.Tokens, wantTokens) || r.Text != want {
		t.Errorf("the wasm CPU backend's tokens %v differ from the native CPU backend's %v", r.Tokens, wantTokens)
	}
}

// tinyModel writes a tiny synthetic llama onto the site as models/NAME
// and returns its path.
func tinyModel(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(suite.models, name)
	if err := synth.WriteFile(path, "tiny", synth.Llama, "Q8_0", 3); err != nil {
		t.Fatal(err)
	}
	return path
}

// progressEvent is one of ember.load's progress callbacks.
type progressEvent struct {
	Phase         string
	Loaded, Total int64
}

// Loading by URL: progress in bytes with the file's total, for the
// download and for the upload into the engine; the browser's copy is
// listed, reused without a request, and deleted from the page's API.
func TestTabLoad(t *testing.T) {
	ctx := page(t)
	path := tinyModel(t, "tiny-load.gguf")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	type loaded struct {
		Info   loadInfo
		Events []progressEvent
	}
	load := func() loaded {
		return jsRun[loaded](t, ctx, 60*time.Second, `(async () => {
			const events = [];
			const info = await ember.load("models/tiny-load.gguf", {context: 64, onProgress: (p) => events.push({phase: p.phase, loaded: p.loaded, total: p.total})});
			return {info, events};
		})()`)
	}
	// check holds the events of one phase to a count that grows to its
	// total.
	check := func(events []progressEvent, phase string, total int64) {
		t.Helper()
		var last int64
		n := 0
		for _, e := range events {
			if e.Phase != phase {
				continue
			}
			n++
			if e.Loaded < last || e.Loaded > e.Total || e.Total != total {
				t.Errorf("%s progress went %d -> %d of %d (the file's total is %d)", phase, last, e.Loaded, e.Total, total)
			}
			last = e.Loaded
		}
		if n == 0 || last != total {
			t.Errorf("%d %s progress events, the last at %d of %d", n, phase, last, total)
		}
	}
	weights := func() int64 {
		r, err := gguf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var n int64
		for _, ti := range r.Tensors {
			n += int64(ti.Size)
		}
		return n
	}()

	first := load()
	check(first.Events, "download", st.Size())
	check(first.Events, "load", weights)
	if first.Info.Cached || gets("/models/tiny-load.gguf") != 1 {
		t.Errorf("the first load: cached %v, %d requests", first.Info.Cached, gets("/models/tiny-load.gguf"))
	}
	second := load()
	check(second.Events, "load", weights)
	for _, e := range second.Events {
		if e.Phase == "download" {
			t.Errorf("the second load downloads: %+v", e)
			break
		}
	}
	if !second.Info.Cached || gets("/models/tiny-load.gguf") != 1 {
		t.Errorf("the second load: cached %v, %d requests for the file in all", second.Info.Cached, gets("/models/tiny-load.gguf"))
	}

	type entry struct {
		URL      string
		Size     int64
		Complete bool
	}
	url := suite.web.URL + "/models/tiny-load.gguf"
	listed := func() *entry {
		for _, e := range jsRun[[]entry](t, ctx, 10*time.Second, `ember.cached()`) {
			if e.URL == url {
				return &e
			}
		}
		return nil
	}
	if e := listed(); e == nil || !e.Complete || e.Size != st.Size() {
		t.Errorf("ember.cached() lists %+v for %s", e, url)
	}
	jsRun[bool](t, ctx, 10*time.Second, `ember.deleteCached("models/tiny-load.gguf")`)
	if e := listed(); e != nil {
		t.Errorf("after deleteCached, ember.cached() still lists %+v", e)
	}
	third := load()
	if third.Info.Cached || gets("/models/tiny-load.gguf") != 2 {
		t.Errorf("the load after the delete: cached %v, %d requests in all", third.Info.Cached, gets("/models/tiny-load.gguf"))
	}

	// A download the network cuts resumes where it stopped.
	cutPath := tinyModel(t, "cut-tiny.gguf")
	failed := jsRun[string](t, ctx, 60*time.Second, `ember.load("models/cut-tiny.gguf", {context: 64, backend: "cpu"}).then(() => "loaded", (e) => e.message)`)
	if !strings.Contains(failed, "stopped at") || !strings.Contains(failed, "loading it again resumes there") {
		t.Fatalf("a cut download says %q", failed)
	}
	t.Logf("the cut download: %s", failed)
	resumed := jsRun[loaded](t, ctx, 60*time.Second, `(async () => {
		const events = [];
		const info = await ember.load("models/cut-tiny.gguf", {context: 64, backend: "cpu", onProgress: (p) => events.push({phase: p.phase, loaded: p.loaded, total: p.total})});
		return {info, events};
	})()`)
	cst, err := os.Stat(cutPath)
	if err != nil {
		t.Fatal(err)
	}
	check(resumed.Events, "download", cst.Size())
	ranges := requests("/models/cut-tiny.gguf")
	var from int64
	if len(ranges) != 2 || ranges[0] != "" {
		t.Fatalf("the requests' ranges: %q", ranges)
	}
	if _, err := fmt.Sscanf(ranges[1], "bytes=%d-", &from); err != nil || from <= 0 || from > cst.Size()/2 {
		t.Errorf("the second request asked for %q of a file of %d bytes cut after %d", ranges[1], cst.Size(), cst.Size()/2)
	}
	if first := resumed.Events[0]; first.Phase != "download" || first.Loaded <= from {
		t.Errorf("the resumed download's first progress: %+v (resumed from %d)", first, from)
	}
	// The stored file is the whole file: the model gives the tokens the
	// native engine gives on the file itself.
	_, want := nativeGenerate(t, cutPath, wire.Message{Type: "generate", ID: "x", Prompt: "Once upon a time", Raw: true, Options: greedy(8)})
	if r := tabGenerate(t, ctx, "Once upon a time", 8); !slices.Equal(r.Tokens, want) {
		t.Errorf("the resumed model's tokens %v, the native engine's %v", r.Tokens, want)
	}
}

// What a person sees when a model cannot be loaded: a missing file, a
// model on a host that does not let this page read it (CORS), a file that
// is not a model, by URL or picked from the disk. Each is the page's
// notice, as an error, in words that say what to do; none is kept in the
// browser's cache.
func TestTabLoadErrors(t *testing.T) {
	ctx := page(t)
	tinyModel(t, "tiny-cors.gguf")
	if err := chromedp.Do(ctx, chromedp.Navigate(suite.web.URL+"/"), chromedp.WaitVisible(chromedp.ID("source"))); err != nil {
		t.Fatal(err)
	}
	notice := func(load chromedp.Action[chromedp.Void]) string {
		t.Helper()
		err := chromedp.Do(ctx,
			chromedp.Evaluate[chromedp.Void](`document.getElementById("notice").textContent = ""`),
			load,
			chromedp.Poll[chromedp.Void](`document.getElementById("notice").textContent !== "" && !document.getElementById("open").disabled`, chromedp.WithPollingTimeout(30*time.Second)))
		if err != nil {
			t.Fatal(err)
		}
		o := jsRun[struct{ Text, Class string }](t, ctx, time.Second, `({text: document.getElementById("notice").textContent, class: document.getElementById("notice").className})`)
		if o.Class != "error" {
			t.Errorf("the notice %q is not shown as an error", o.Text)
		}
		return o.Text
	}
	byURL := func(url string) string {
		t.Helper()
		return notice(chromedp.Steps(chromedp.SetValue(chromedp.ID("source"), url), chromedp.Click(chromedp.ID("open"))))
	}
	for _, c := range []struct {
		what, url, says string
	}{
		{"a missing file", "models/missing.gguf", "was not found (404)"},
		{"a host without CORS", suite.other.URL + "/models/tiny-cors.gguf", "(CORS)"},
		{"a page where a model should be", "models/index.gguf", `is not a GGUF model file (it starts with "<!do", not "GGUF")`},
	} {
		if got := byURL(c.url); !strings.Contains(got, c.says) {
			t.Errorf("%s: the page says %q, not %q", c.what, got, c.says)
		}
	}
	// The request is made; the browser withholds the answer.
	if n := gets("other:/models/tiny-cors.gguf"); n != 1 {
		t.Errorf("the other origin had %d requests for the model, not 1", n)
	}
	picked := notice(chromedp.SetUploadFiles(chromedp.ID("filein"), []string{filepath.Join(suite.models, "index.gguf")}))
	if !strings.Contains(picked, "index.gguf is not a GGUF model file") {
		t.Errorf("a picked file that is not a model: the page says %q", picked)
	}
	for _, e := range jsRun[[]struct{ URL string }](t, ctx, 10*time.Second, `ember.cached()`) {
		if strings.Contains(e.URL, "index.gguf") || strings.Contains(e.URL, "missing") || strings.Contains(e.URL, "tiny-cors") {
			t.Errorf("a failed load left %s in the browser's cache", e.URL)
		}
	}
}

// A GPU that fails: what the page says when the browser's WebGPU reports
// an allocation it could not make, or takes the device away, and that the
// engine loads again after. SwiftShader allocates from the host's memory
// and fails no allocation a test can afford, and loses no device, so the
// test makes the browser report both: it attaches to the engine's worker
// (DevTools), has the device's next error scope hold a GPUOutOfMemoryError
// (whose message does not say "memory", as Dawn's often do not: the scope
// says it), and later destroys the device under the loaded model, which
// the browser reports as a loss like any other.
func TestTabGPUFailures(t *testing.T) {
	ctx := page(t)
	tinyModel(t, "tiny-oom.gguf")
	if err := chromedp.Do(ctx, chromedp.Navigate(suite.web.URL+"/"), chromedp.WaitVisible(chromedp.ID("source"))); err != nil {
		t.Fatal(err)
	}
	jsRun[[]any](t, ctx, 10*time.Second, `ember.cached()`) // the page's worker is running
	targets, err := chromedp.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The workers of pages the tab left may linger a moment among the
	// targets: every worker of the site is armed, and one must take it.
	armed := 0
	var workers []context.Context
	for _, ti := range targets {
		if ti.Type != "worker" || !strings.HasPrefix(ti.URL, suite.web.URL+"/") {
			continue
		}
		wctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(ti.TargetID))
		defer cancel()
		// Attached without a deadline (chromedp ties a target's session to
		// the context of its first run), each evaluation with its own: one
		// deadline set here for all of them ran out during the loads
		// between the arming and the destroy below whenever those took
		// over ten seconds, and the destroy found no worker.
		if err := chromedp.Do(wctx); err != nil {
			t.Logf("worker %s: %v", ti.URL, err)
			continue
		}
		actx, cancelT := context.WithTimeout(wctx, 10*time.Second)
		defer cancelT()
		ok, err := chromedp.Run(actx, chromedp.Evaluate[bool](`(() => {
			const pop = GPUDevice.prototype.popErrorScope;
			let armed = true;
			GPUDevice.prototype.popErrorScope = async function () {
				const e = await pop.call(this);
				if (!armed) return e;
				armed = false;
				return new GPUOutOfMemoryError("Allocation failed");
			};
			const request = GPUAdapter.prototype.requestDevice;
			GPUAdapter.prototype.requestDevice = async function (...args) {
				globalThis.emberTestDevice = await request.apply(this, args);
				return globalThis.emberTestDevice;
			};
			return true;
		})()`))
		if err != nil {
			t.Logf("worker %s: %v", ti.URL, err)
			continue
		}
		if ok {
			armed++
			workers = append(workers, wctx)
		}
	}
	if armed == 0 {
		t.Fatalf("no worker of the page took the injected error (%d targets)", len(targets))
	}
	// runs checks that the model loads and generates, after a failure.
	runs := func(after string) {
		t.Helper()
		tabLoadContext(t, ctx, "models/tiny-oom.gguf", "webgpu", 64)
		if r := tabGenerate(t, ctx, "Once upon a time", 2); len(r.Tokens) != 2 {
			t.Errorf("after %s: %+v", after, r)
		}
	}
	failed := jsRun[string](t, ctx, 60*time.Second, `ember.load("models/tiny-oom.gguf", {backend: "webgpu", context: 64}).then(() => "loaded", (e) => e.message)`)
	if !strings.Contains(failed, "tiny-oom.gguf does not fit the GPU's memory") || !strings.Contains(failed, "pick a smaller model") {
		t.Errorf("out of GPU memory, the load says %q", failed)
	}
	t.Logf("out of GPU memory: %s", failed)
	runs("the failed load") // it left nothing behind

	// The device lost under the model: the next request says so.
	destroyed := 0
	for _, w := range workers {
		dctx, cancelD := context.WithTimeout(w, 10*time.Second)
		ok, err := chromedp.Run(dctx, chromedp.Evaluate[bool](`!!globalThis.emberTestDevice && (globalThis.emberTestDevice.destroy(), true)`))
		cancelD()
		if err != nil {
			t.Logf("worker: %v", err)
		}
		if err == nil && ok {
			destroyed++
		}
	}
	if destroyed != 1 {
		t.Fatalf("%d workers held a device to destroy", destroyed)
	}
	lost := jsRun[string](t, ctx, 30*time.Second, `ember.generate({prompt: "Once upon a time", raw: true, options: {max_tokens: 4, temperature: 0}}).then(() => "generated", (e) => e.message)`)
	if !strings.Contains(lost, "the GPU device was lost") || !strings.Contains(lost, "load the model again") {
		t.Errorf("with the device lost, a request says %q", lost)
	}
	t.Logf("device lost: %s", lost)
	runs("the lost device") // loading again opens a new device
}

// Registry names: the tab lists the registry the native build has (names,
// URLs, sizes, as cmd/wasm compiles it in), and ember.load of a name loads
// the file its entry points to, under that name. The real entries point to
// the internet, so the resolution is run on an entry the test adds to the
// page's list, pointing to a model on the test server.
func TestTabRegistry(t *testing.T) {
	ctx := page(t)
	type entry struct {
		Name, URL string
		Size      int64
	}
	var want []entry
	for _, m := range registry.Models() {
		want = append(want, entry{m.Name, m.URL, m.Size})
	}
	if got := jsRun[[]entry](t, ctx, 10*time.Second, `ember.registry()`); !slices.Equal(got, want) {
		t.Errorf("the tab's registry:\n%v\nthe native build's:\n%v", got, want)
	}
	tinyModel(t, "tiny-registry.gguf")
	info := jsRun[loadInfo](t, ctx, 60*time.Second, fmt.Sprintf(`(async () => {
		const registry = ember.registry;
		const list = await registry.call(ember);
		ember.registry = async () => [...list, {name: "test:tiny", url: %q}];
		try {
			return await ember.load("test:tiny", {backend: "cpu", context: 64});
		} finally {
			ember.registry = registry;
		}
	})()`, suite.web.URL+"/models/tiny-registry.gguf"))
	if info.Model != "test:tiny" || gets("/models/tiny-registry.gguf") != 1 {
		t.Errorf("loading the name test:tiny: %+v, %d requests for its file", info, gets("/models/tiny-registry.gguf"))
	}
}

// A model dropped on the chat loads like a picked one; a model the
// browser stored loads again with its server gone (offline), in a fresh
// page, and generates the native engine's tokens.
func TestTabDropAndOffline(t *testing.T) {
	ctx := page(t)
	path := tinyModel(t, "tiny-drop.gguf")
	_, want := nativeGenerate(t, path, wire.Message{Type: "generate", ID: "x", Prompt: "Once upon a time", Raw: true, Options: greedy(6)})
	loaded := func(name string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.getElementById("model").textContent === %q && document.getElementById("status").textContent.startsWith("loaded")
			|| document.getElementById("notice").className === "error"`, name), chromedp.WithPollingTimeout(30*time.Second))
	}
	before := gets("/models/tiny-drop.gguf")
	err := chromedp.Do(ctx,
		chromedp.Navigate(suite.web.URL+"/?backend=cpu"),
		chromedp.WaitVisible(chromedp.ID("messages")),
		// The bytes come by fetch only to make a File in the page, as a
		// drop from the desktop gives one.
		chromedp.Evaluate[chromedp.Void](`(async () => {
			const blob = await (await fetch("models/tiny-drop.gguf")).blob();
			const dt = new DataTransfer();
			dt.items.add(new File([blob], "dropped.gguf"));
			document.getElementById("messages").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		})()`, chromedp.EvalAwaitPromise),
		loaded("dropped.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	if n := jsRun[string](t, ctx, time.Second, `document.getElementById("notice").textContent`); n != "" {
		t.Fatalf("the dropped file: %s", n)
	}
	if r := tabGenerate(t, ctx, "Once upon a time", 6); !slices.Equal(r.Tokens, want) {
		t.Errorf("the dropped model's tokens %v, the native engine's %v", r.Tokens, want)
	}
	if n := gets("/models/tiny-drop.gguf") - before; n != 1 {
		t.Errorf("%d requests for the file, where the test's own fetch made 1", n)
	}

	// Offline: a server of its own, which goes away after the first load.
	host := httptest.NewServer(siteHandler(true))
	url := host.URL + "/models/tiny-drop.gguf"
	tabLoadContext(t, ctx, url, "cpu", 64)
	host.Close()
	err = chromedp.Do(ctx, chromedp.Navigate(suite.web.URL+"/?backend=cpu"), chromedp.WaitVisible(chromedp.ID("source")))
	if err != nil {
		t.Fatal(err)
	}
	info := tabLoadContext(t, ctx, url, "cpu", 64)
	if !info.Cached {
		t.Errorf("with the server gone the load was not from the cache: %+v", info)
	}
	if r := tabGenerate(t, ctx, "Once upon a time", 6); !slices.Equal(r.Tokens, want) {
		t.Errorf("offline, the stored model's tokens %v, the native engine's %v", r.Tokens, want)
	}
	jsRun[bool](t, ctx, 10*time.Second, fmt.Sprintf(`ember.deleteCached(%q)`, url))
}

// A model picked from the disk (the file input; a drop gives the page the
// same File) loads and generates the native CPU backend's tokens (on the
// wasm CPU backend: how the file is read is the test, not the backend).
func TestTabLocalFile(t *testing.T) {
	ctx := page(t)
	path := storiesPath(t)
	want, wantTokens := nativeGenerate(t, path, wire.Message{Type: "generate", ID: "x", Prompt: "Once upon a time", Raw: true, Options: greedy(24)})
	before := gets("/models/stories260K.gguf")
	err := chromedp.Do(ctx,
		chromedp.Navigate(suite.web.URL+"/?backend=cpu"),
		chromedp.WaitVisible(chromedp.ID("source")),
		chromedp.SetUploadFiles(chromedp.ID("filein"), []string{path}),
		chromedp.Poll[chromedp.Void](`document.getElementById("status").textContent.startsWith("loaded") || document.getElementById("notice").textContent !== ""`, chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	o := jsRun[struct{ Model, Status, Notice string }](t, ctx, time.Second, `({model: document.getElementById("model").textContent,
		status: document.getElementById("status").textContent, notice: document.getElementById("notice").textContent})`)
	if o.Model != "stories260K.gguf" || o.Notice != "" {
		t.Fatalf("after picking the file: model %q, status %q, notice %q", o.Model, o.Status, o.Notice)
	}
	r := tabGenerate(t, ctx, "Once upon a time", 24)
	if r.Text != want || !slices.Equal(r.Tokens, wantTokens) {
		t.Errorf("the picked file's tokens %v differ from the native CPU backend's %v", r.Tokens, wantTokens)
	}
	if n := gets("/models/stories260K.gguf"); n != before {
		t.Errorf("a picked file was read from the server (%d requests)", n-before)
	}
}

// Cancel: a long generation stops with stop_reason "cancelled" soon after
// ember.cancel, the way the Stop button calls it, on WebGPU and on the
// wasm CPU backend (whose steps never wait on the browser: the engine must
// let the worker read the cancel message meanwhile).
func TestTabCancel(t *testing.T) {
	ctx := page(t)
	tinyModel(t, "tiny-cancel.gguf")
	for _, c := range []struct {
		backend  string
		ctx, max int // the KV cache, the tokens asked for
		slack    int // tokens a cancel may take to land
	}{
		// A greedy decode on a device runs chains of up to 8 steps (the
		// engine's chainSteps) before it looks at the cancel again.
		// SwiftShader's steps are slow, so the cache is small.
		{"webgpu", 64, 50, 8},
		// The CPU engine lets the browser in at least every cpuYield
		// (cmd/wasm); the tiny model's token takes about a millisecond,
		// so a cancel that waits for the end runs all 240.
		{"cpu", 256, 240, 120},
	} {
		t.Run(c.backend, func(t *testing.T) {
			tabLoadContext(t, ctx, "models/tiny-cancel.gguf", c.backend, c.ctx)
			r := jsRun[tabResult](t, ctx, 60*time.Second, fmt.Sprintf(`(async () => {
				const tokens = [];
				const r = await ember.generate({prompt: "Once upon a time", raw: true, options: {max_tokens: %d, temperature: 0, ignore_eos: true},
					onToken: (ev) => { tokens.push(ev.token); if (tokens.length === 3) ember.cancel(); }});
				return {text: r.text, tokens, stats: r.stats};
			})()`, c.max))
			t.Logf("cancelled after 3 of %d tokens: %d generated, stop reason %q", c.max, r.Stats.GeneratedTokens, r.Stats.StopReason)
			if r.Stats.StopReason != "cancelled" || r.Stats.GeneratedTokens > 3+c.slack {
				t.Errorf("cancelled after 3 tokens: %d tokens, stop reason %q", r.Stats.GeneratedTokens, r.Stats.StopReason)
			}
			// The engine is free again: the next request runs to its end.
			r = tabGenerate(t, ctx, "Once upon a time", 4)
			if r.Stats.StopReason == "cancelled" || len(r.Tokens) == 0 {
				t.Errorf("the request after the cancel: %+v", r.Stats)
			}
		})
	}
}

// tabLoadContext is tabLoad with a KV cache of ctx positions.
func tabLoadContext(t *testing.T, ctx context.Context, url, backend string, positions int) loadInfo {
	t.Helper()
	return jsRun[loadInfo](t, ctx, 60*time.Second, fmt.Sprintf(`ember.load(%q, {backend: %q, context: %d})`, url, backend, positions))
}

// A browser without WebGPU (Chromium without --enable-unsafe-webgpu:
// headless on Linux then has no adapter) runs the model on the wasm CPU
// backend, says so in the page's notice, and gives the native text.
func TestTabNoWebGPU(t *testing.T) {
	page(t)
	path := storiesPath(t)
	const n = 24
	want, wantTokens := nativeGenerate(t, path, wire.Message{Type: "generate", ID: "x", Prompt: "Once upon a time", Raw: true, Options: greedy(n)})
	ctx, cancel := newBrowser(false)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/?model=models/stories260K.gguf&prompt=Once%%20upon%%20a%%20time&raw=1&n=%d&temperature=0&autorun=1", suite.web.URL, n)),
		chromedp.Poll[chromedp.Void](`document.title.endsWith(" - done") || document.title.includes(" - error:")`, chromedp.WithPollingTimeout(60*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		Title, Output, Tokens, Status, Notice string
		NoticeShown, GPU, Adapter             bool
	}
	o := jsRun[outcome](t, ctx, 10*time.Second, `(async () => ({title: document.title, output: document.getElementById("output").textContent,
		tokens: document.getElementById("output").dataset.tokens || "", status: document.getElementById("status").textContent,
		notice: document.getElementById("notice").textContent, noticeShown: getComputedStyle(document.getElementById("notice")).display !== "none",
		gpu: !!navigator.gpu, adapter: !!(navigator.gpu && await navigator.gpu.requestAdapter())}))()`)
	t.Logf("without the flag: navigator.gpu %v, an adapter %v; notice %q", o.GPU, o.Adapter, o.Notice)
	var tokens []int32
	json.Unmarshal([]byte(o.Tokens), &tokens)
	if !strings.HasSuffix(o.Title, " - done") || o.Output != want || !slices.Equal(tokens, wantTokens) {
		t.Errorf("without WebGPU the page ended %q with %q %v, not the native %q %v", o.Title, o.Output, tokens, want, wantTokens)
	}
	if !strings.Contains(o.Status, "on the CPU") || !o.NoticeShown || !strings.Contains(o.Notice, "WebGPU is not available") {
		t.Errorf("without WebGPU: status %q, notice %q (shown %v)", o.Status, o.Notice, o.NoticeShown)
	}

	// A model past the CPU engine's 2 GiB, picked from the disk: neither
	// backend can hold it, and the page says so before reading its weights
	// (the file is sparse: its header says 2.25 GiB of weights).
	big := filepath.Join(t.TempDir(), "too-big.gguf")
	if err := sparseModel(big, 3, 768<<20); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`document.getElementById("notice").textContent = ""`),
		chromedp.SetUploadFiles(chromedp.ID("filein"), []string{big}),
		chromedp.Poll[chromedp.Void](`document.getElementById("notice").className === "error" && !document.getElementById("open").disabled`, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	says := jsRun[string](t, ctx, time.Second, `document.getElementById("notice").textContent`)
	if !strings.HasPrefix(says, "WebGPU is not available (") || !strings.Contains(says, "), and the model's 2.2 GiB of weights do not fit the CPU engine in a browser tab") {
		t.Errorf("a model neither backend holds: the page says %q", says)
	}
	t.Logf("a model neither backend holds: %s", says)
}

// sparseModel writes a GGUF file of n F32 tensors of size bytes each whose
// data is a hole in the file (zeros that take no disk): enough for a
// loader that refuses the model by its header.
func sparseModel(path string, n int, size uint64) error {
	w := gguf.NewWriter()
	for i := range n {
		err := w.AddTensor(fmt.Sprintf("blk.%d.ffn_up.weight", i), gguf.F32, []uint64{1024, size / 4096}, func(out io.Writer) error {
			_, err := io.CopyN(out, zeros{}, int64(size))
			return err
		})
		if err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	sw := &holes{f: f}
	if _, err := w.WriteTo(sw); err != nil {
		f.Close()
		return err
	}
	// A hole at the end is made by the file's length.
	if err := f.Truncate(sw.at); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// holes writes to a file, skipping over runs of zero bytes (seeking past
// them leaves holes) so that a large file of zeros takes no disk.
type holes struct {
	f  *os.File
	at int64
}

func (h *holes) Write(p []byte) (int, error) {
	if !slices.ContainsFunc(p, func(b byte) bool { return b != 0 }) {
		h.at += int64(len(p))
		return len(p), nil
	}
	n, err := h.f.WriteAt(p, h.at)
	h.at += int64(n)
	return n, err
}

// The chat in the tab: two turns with history on WebGPU, the first answer
// the native engine's for the same conversation, and a screenshot of the
// finished chat for a person to look at.
func TestTabChat(t *testing.T) {
	ctx := page(t)
	path := storiesPath(t)
	const n = 24
	want, _ := nativeGenerate(t, path, wire.Message{Type: "generate", ID: "x",
		Messages: []wire.ChatMessage{{Role: "user", Content: "Tell me a story."}}, Options: greedy(n)})
	answered := func(k int) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelectorAll(".msg.assistant .meta").length === %d &&
			document.querySelectorAll(".msg.assistant .meta")[%d].textContent.includes("tok/s")`, k, k-1), chromedp.WithPollingTimeout(60*time.Second))
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/?ctx=%d", suite.web.URL, 2*storiesContext)),
		chromedp.WaitVisible(chromedp.ID("source")),
		chromedp.SetValue(chromedp.ID("source"), "models/stories260K.gguf"),
		chromedp.Click(chromedp.ID("open")),
		chromedp.Poll[chromedp.Void](`document.getElementById("status").textContent.startsWith("loaded")`, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.SetValue(chromedp.ID("max"), fmt.Sprint(n)),
		chromedp.SetValue(chromedp.ID("temp"), "0"),
		chromedp.SendKeys(chromedp.ID("prompt"), "Tell me a story."),
		chromedp.Click(chromedp.ID("send")),
		answered(1),
		chromedp.SendKeys(chromedp.ID("prompt"), "What happened next?"),
		chromedp.Click(chromedp.ID("send")),
		answered(2),
	)
	if err != nil {
		t.Fatal(err)
	}
	answers := jsRun[[]string](t, ctx, time.Second, `Array.from(document.querySelectorAll(".msg.assistant .content"), (e) => e.textContent)`)
	if len(answers) != 2 || answers[0] != want || answers[1] == "" {
		t.Errorf("the chat's answers %q; the native engine's first: %q", answers, want)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(os.TempDir(), "ember-tab-chat.png")
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the chat in the tab: %s", shot)
}

// The page as `ember serve --api-key` serves it: it asks for the key
// (rather than showing the API's 401), and with it shares the model it
// runs in the tab, which `ember remote` then drives through the server:
// ember remote -> server -> tab -> tokens back, the native engine's.
func TestServedPage(t *testing.T) {
	ctx := page(t)
	path := storiesPath(t)
	const n, key = 24, "relay-key"
	// ember remote, built while the page loads.
	bin := filepath.Join(t.TempDir(), "ember")
	built := make(chan error, 1)
	go func() {
		out, err := exec.Command("go", "build", "-o", bin, "../cmd/native").CombinedOutput()
		if err != nil {
			err = fmt.Errorf("building ember: %v\n%s", err, out)
		}
		built <- err
	}()
	want, _ := nativeGenerate(t, path, wire.Message{Type: "generate", ID: "x", Prompt: "Once upon a time", Raw: true, Options: greedy(n)})

	srv := server.New(server.Config{APIKey: key, Engine: os.DirFS(suite.site)})
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	defer srv.Close()
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	err := chromedp.Do(tab,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.Poll[chromedp.Void](`getComputedStyle(document.getElementById("keybox")).display !== "none"`, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	asked := jsRun[struct{ Notice, Class string }](t, tab, time.Second, `({notice: document.getElementById("notice").textContent, class: document.getElementById("notice").className})`)
	if !strings.Contains(asked.Notice, "needs an API key") || asked.Class == "error" {
		t.Errorf("without the key the page says %q (class %q)", asked.Notice, asked.Class)
	}
	if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.ID("key"), key), chromedp.Click(chromedp.ID("keyok"))); err != nil {
		t.Fatal(err)
	}
	// The page reloads with the key; the server, with no model of its
	// own, leaves the tab's engine selected.
	reloaded := `document.readyState === "complete" && getComputedStyle(document.getElementById("keybox")).display === "none" &&
		!document.querySelector('#engine option[value="server"]').disabled`
	if err := pollAcrossLoads(tab, 20*time.Second, reloaded); err != nil {
		t.Fatal(err)
	}
	if engine := jsRun[string](t, tab, time.Second, `ember.engine`); engine != "tab" {
		t.Fatalf("the page chose the %s engine", engine)
	}
	// The model comes from another origin, which allows it (CORS).
	info := tabLoadContext(t, tab, suite.web.URL+"/models/stories260K.gguf", "webgpu", storiesContext)
	if info.Backend != "webgpu" {
		t.Errorf("the tab loaded %+v", info)
	}
	if name := jsRun[string](t, tab, 10*time.Second, `ember.share("stories-tab")`); name != "stories-tab" {
		t.Fatalf("shared as %q", name)
	}
	if err := <-built; err != nil {
		t.Fatal(err)
	}
	wsURL := "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"
	cmd := exec.Command(bin, "remote", wsURL, "--model", "stories-tab", "--prompt", "Once upon a time", "--raw-prompt",
		"--temperature", "0", "--count", fmt.Sprint(n), "--api-key", key)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ember remote: %v\n%s", err, stderr.String())
	}
	if got := strings.TrimSuffix(string(out), "\n"); got != want {
		t.Errorf("ember remote through the tab:\n%q\nthe native engine:\n%q", got, want)
	}
	t.Logf("ember remote: %s", strings.TrimSpace(stderr.String()))
}
