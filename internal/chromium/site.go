package chromium

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/chromedp/chromedp"
)

// Options are the flags the engine's browser tests and bench/browser
// start Chromium with: headless, a profile of its own, nothing fetched in
// the background, and WebGPU on where webgpu is set (headless Chromium on
// Linux offers no adapter without --enable-unsafe-webgpu; SwiftShader, its
// CPU adapter, then serves it).
func Options(path, profile string, webgpu bool) []chromedp.ExecAllocatorOption {
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(path),
		chromedp.Flag("headless", "new"), chromedp.NoSandbox, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(profile), chromedp.WindowSize(1000, 760)}
	if webgpu {
		opts = append(opts, chromedp.Flag("enable-unsafe-webgpu", true))
	}
	return opts
}

// Site writes into dir the static site `make web` writes to out/web:
// cmd/wasm built for js/wasm (ember.wasm), the wasm_exec.js of the same Go,
// and the page's files from web/. repo is the module's root.
func Site(repo, dir string) error {
	goTool := func(env []string, args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	wasm := []string{"GOOS=js", "GOARCH=wasm"}
	if _, err := goTool(wasm, "build", "-trimpath", "-ldflags=-s", "-o", filepath.Join(dir, "ember.wasm"), "./cmd/wasm"); err != nil {
		return err
	}
	root, err := goTool(wasm, "env", "GOROOT")
	if err != nil {
		return err
	}
	files := map[string]string{"wasm_exec.js": filepath.Join(root, "lib", "wasm", "wasm_exec.js")}
	for _, f := range []string{"index.html", "app.js", "ember.js", "worker.js"} {
		files[f] = filepath.Join(repo, "web", f)
	}
	for name, from := range files {
		b, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
