//go:build !js

package webgpu_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/emberllm/ember/internal/chromium"
)

// The backend in a browser: this package's op suite and binding checks,
// built for js/wasm, run in headless Chromium on its WebGPU (SwiftShader
// there: on the CPU, with subgroups and without f16), whose validation is
// stricter than wgpu-native's. The fused kernels run there inside whole
// models, in web's browser tests of the engine (cmd/wasm); natively, here,
// against the kernels they replace.

// browserPage loads a Go wasm module with wasm_exec.js the way a page must:
// globalThis.wasm set to the instantiation result (the WebGPU binding
// writes buffers through it). run resolves to the program's exit code and
// output.
const browserPage = `<!doctype html>
<script src="wasm_exec.js"></script>
<script>
async function load(url, argv) {
	const go = new Go();
	go.argv = argv;
	const dec = new TextDecoder();
	globalThis.goOut = "";
	fs.writeSync = (fd, buf) => { globalThis.goOut += dec.decode(buf); return buf.length; };
	let code = null;
	go.exit = (c) => { code = c; };
	globalThis.wasm = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
	return {go, done: go.run(wasm.instance).then(() => ({code, out: globalThis.goOut}))};
}
async function run(url, argv) { return (await load(url, argv)).done; }
</script>`

// goTool runs the go command for js/wasm in dir.
func goTool(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestBrowser(t *testing.T) {
	chrome := chromium.Require(t)
	if testing.Short() {
		t.Skip("builds the package's tests for wasm and runs them in Chromium")
	}
	site := t.TempDir()
	goTool(t, ".", "test", "-c", "-o", filepath.Join(site, "webgpu.test.wasm"), ".")
	execJS, err := os.ReadFile(filepath.Join(goTool(t, ".", "env", "GOROOT"), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(site))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(browserPage))
		case "/wasm_exec.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(execJS)
		default:
			files.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()

	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(chrome),
		chromedp.Flag("headless", "new"), chromedp.NoSandbox, chromedp.NoFirstRun,
		chromedp.Flag("enable-unsafe-webgpu", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir())}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, 9*time.Minute)
	defer cancelT()

	// The op suite and the binding checks in the browser, whose WebGPU
	// validates what wgpu-native lets through.
	t.Run("ops", func(t *testing.T) {
		type result struct {
			Code int
			Out  string
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
			t.Fatal(err)
		}
		r, err := chromedp.Run(ctx, chromedp.Evaluate[result](`run("webgpu.test.wasm", ["webgpu.test", "-test.v", "-test.run", "^(TestOps|TestBindOnce|TestCopyBufferOrder|TestTopKLimit)$"])`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		var summary bytes.Buffer
		for _, line := range strings.Split(r.Out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "---") || strings.Contains(line, "_test.go") {
				summary.WriteString(line + "\n")
			}
		}
		if r.Code != 0 || !strings.Contains(r.Out, "\nPASS") {
			t.Fatalf("the op suite in the browser exited with %d:\n%s", r.Code, r.Out)
		}
		t.Logf("the op suite in the browser:\n%s", summary.String())
	})
}
